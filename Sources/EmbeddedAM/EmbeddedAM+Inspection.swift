import AuthBridgeCore

/// What the inspector page reads of the server's own books (docs/inspector.md), as values: the
/// journeys waiting on a client, the OAuth grants with the access tokens they issued last
/// (decoded, never the token itself), the scripted nodes a scenario may choose for; no secret
/// (no authId, no refresh token, no code).
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
        /// `active`; `revoked` (its refresh token revoked or an administrator's revocation:
        /// refreshes are refused); `expired` (its refresh token's time is up).
        public enum State: String, Sendable { case active, revoked, expired }

        public var id: String
        public var state: State
        /// When it was revoked, for a grant ended by a revoked refresh token (kept a while).
        public var endedAt: Double?
        public var clientId: String
        public var userId: String
        public var scopes: [String]
        public var authTime: Double
        public var issuer: String?
        /// When its refresh token stops being honoured, on the daemon's clock.
        public var refreshExpires: Double
        /// The last access tokens it issued, oldest first, and the last ID token's claims.
        public var accessTokens: [AccessTokenView]
        public var idTokenClaims: JSONObject?
    }

    /// A journey's nodes whose outcome `setNodeOutcome` may choose, with their outcomes and the
    /// one chosen now, if any.
    public struct ScriptedNodes: Equatable, Sendable {
        public struct Node: Equatable, Sendable {
            public var id: String
            public var displayName: String?
            public var outcomes: [String]
            public var chosen: String?
        }

        public var journey: String
        public var nodes: [Node]
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

extension JourneyEngine {
    /// Every loaded journey with nodes a scenario chooses for, by name. A built-in has none
    /// (`JourneyCatalog.hasScenarioNodes`), so only the journeys already parsed are looked at.
    var scriptedNodes: [EmbeddedAM.ScriptedNodes] {
        journeys.parsedJourneys.compactMap { journey in
            let nodes = journey.scenarioNodes.map { node in
                EmbeddedAM.ScriptedNodes.Node(
                    id: node.nodeId, displayName: node.displayName, outcomes: node.outcomes,
                    chosen: scenario?.choice(journey: journey.name, node: node.nodeId, displayName: node.displayName)?
                        .outcome)
            }.sorted { ($0.displayName ?? $0.id, $0.id) < ($1.displayName ?? $1.id, $1.id) }
            return nodes.isEmpty ? nil : EmbeddedAM.ScriptedNodes(journey: journey.name, nodes: nodes)
        }.sorted { $0.journey < $1.journey }
    }
}

extension OAuthIssuer {
    /// The live grants (the `limit` used last), oldest first, then the grants ended last
    /// (revoked); and how many live grants were left out. Only the grants shown are decoded.
    func grantViews(recent limit: Int = .max) -> (views: [EmbeddedAM.GrantView], leftOut: Int) {
        let now = clock.now
        let recent =
            grants.count <= limit
            ? Array(grants.values) : Array(grants.values.sorted { $0.lastUsed > $1.lastUsed }.prefix(max(0, limit)))
        let ordered = recent.sorted { ($0.authTime, $0.clientId, $0.id) < ($1.authTime, $1.clientId, $1.id) }
        let live = ordered.map { grant -> EmbeddedAM.GrantView in
            let state: EmbeddedAM.GrantView.State =
                grantByRefreshToken[grant.refreshToken] == nil
                ? .revoked : now < grant.refreshExpires ? .active : .expired
            return view(grant, state: state, endedAt: nil)
        }
        return (live + endedGrants.map { view($0.grant, state: .revoked, endedAt: $0.at) }, grants.count - live.count)
    }

    private func view(_ grant: Grant, state: EmbeddedAM.GrantView.State, endedAt: Double?) -> EmbeddedAM.GrantView {
        EmbeddedAM.GrantView(
            id: grant.id, state: state, endedAt: endedAt, clientId: grant.clientId, userId: grant.userId,
            scopes: grant.scopes, authTime: grant.authTime, issuer: grant.issuer,
            refreshExpires: grant.refreshExpires, accessTokens: accessTokenViews(grant, ended: endedAt != nil),
            idTokenClaims: grant.issued.id.map { idClaims(grant, $0) })
    }
}
