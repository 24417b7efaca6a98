import AuthBridgeCore

/// What the inspector page reads of the server's own books (docs/inspector.md), as values: the
/// journeys waiting on a client and the OAuth grants, with no secret (no authId, no refresh
/// token, no code).
extension EmbeddedAM {
    public struct JourneyInFlight: Equatable, Sendable {
        /// The journey started, and the tree running now (an inner tree it entered, or itself).
        public var journey: String
        public var tree: String
        /// The node that sent the step the journey waits on.
        public var node: String
        public var stage: String?
        public var callbacks: [String]
        public var username: String?
        /// When its time is up, on the daemon's clock.
        public var deadline: Double
    }

    public struct GrantView: Equatable, Sendable {
        public var clientId: String
        public var userId: String
        public var scopes: [String]
        public var authTime: Double
        public var issuer: String?
        /// When its refresh token stops being honoured, on the daemon's clock.
        public var refreshExpires: Double
    }
}

extension JourneyEngine {
    var inFlight: [EmbeddedAM.JourneyInFlight] {
        sessions.values.map { session in
            let username = JourneyValues.text(session.shared["username"])
            return EmbeddedAM.JourneyInFlight(
                journey: session.journey.name, tree: session.current.name, node: session.node,
                stage: session.step?.stage, callbacks: session.step?.callbacks.map(\.type.rawValue) ?? [],
                username: username.isEmpty ? nil : username, deadline: session.deadline)
        }.sorted { ($0.deadline, $0.journey) < ($1.deadline, $1.journey) }
    }
}

extension OAuthIssuer {
    var grantViews: [EmbeddedAM.GrantView] {
        grants.values.map {
            EmbeddedAM.GrantView(
                clientId: $0.clientId, userId: $0.userId, scopes: $0.scopes, authTime: $0.authTime, issuer: $0.issuer,
                refreshExpires: $0.refreshExpires)
        }.sorted { ($0.authTime, $0.clientId) < ($1.authTime, $1.clientId) }
    }
}
