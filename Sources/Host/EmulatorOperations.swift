import AuthBridgeCore
import EmbeddedAM
import NativeModules

/// What a test does to the world around the app (time, users, the server, the native side acting
/// on its own) and what it may read of it: the operations behind `emulator.*`. Each runs inside a
/// unit of work (`Host.perform`); a bad argument is an `EmulatorError` naming it.
public struct EmulatorError: Error, Equatable, Sendable {
    /// The argument at fault (`seconds`, `username`, …).
    public let param: String
    public let reason: String

    public init(param: String, reason: String) {
        self.param = param
        self.reason = reason
    }
}

extension World {
    /// Moves the virtual clock forward; returns the new time.
    public func advanceClock(by seconds: Double) throws(EmulatorError) -> Double {
        guard seconds >= 0 else { throw EmulatorError(param: "seconds", reason: "seconds must not be negative") }
        guard let virtual = clock as? VirtualClock else {
            throw EmulatorError(
                param: "seconds", reason: "the clock is the system clock; start with --clock virtual to move time")
        }
        guard TimeBounds.contains(virtual.now + seconds) else {
            let room = Int64(TimeBounds.latest - virtual.now)
            throw EmulatorError(
                param: "seconds",
                reason: "seconds would move the clock past 9999-12-31T23:59:59Z; at most \(room) from now")
        }
        virtual.advance(by: seconds)
        return virtual.now
    }

    public func addUser(
        username: String, password: String, attributes: JSONObject
    ) throws(EmulatorError) -> DirectoryUser {
        do {
            return try embedded.users.add(username: username, password: password, attributes: attributes)
        } catch {
            switch error {
            case .duplicate: throw EmulatorError(param: "username", reason: "a user named \(username) already exists")
            case .emptyUsername: throw EmulatorError(param: "username", reason: "username must not be empty")
            case .emptyPassword: throw EmulatorError(param: "password", reason: "password must not be empty")
            }
        }
    }

    /// The native side logs out on its own (LOGOUT_EVENT); false when nobody was logged in.
    public func nativeLogout() -> Bool { sdk.nativeLogout() }

    /// The native side asks JS for its tokens (TOKEN_REQUEST_EVENT, held until JS is ready).
    public func requestToken() -> (requestId: String, delivered: Bool) { sync.requestToken() }

    /// Server-side revocation of a user's sessions and grants; the native side is not told and
    /// finds out on its next refresh. Without a username, the user the native tokens belong to.
    public func revokeSessions(username: String?) throws(EmulatorError) -> (sessions: Int, grants: Int) {
        let userId: String
        if let username {
            guard let user = embedded.users.find(username: username) else {
                throw EmulatorError(param: "username", reason: "no user named \(username)")
            }
            userId = user.id
        } else {
            guard let token = sdk.accessToken, let id = embedded.userId(ofAccessToken: token.value) else {
                throw EmulatorError(
                    param: "username", reason: "the native side holds no tokens of this server; name the user")
            }
            userId = id
        }
        return embedded.revokeSessions(userId: userId)
    }

    /// The journeys `login` and `register` start from now on; returns both names in force.
    public func setServiceNames(
        login: String?, registration: String?
    ) throws(EmulatorError) -> (login: String, registration: String) {
        for (key, name) in [("authServiceName", login), ("registrationServiceName", registration)] {
            if let name, !embedded.journeyNames.contains(name) {
                throw EmulatorError(
                    param: key,
                    reason:
                        "\(key): no journey named \(name) (available: \(embedded.journeyNames.joined(separator: ", ")))"
                )
            }
        }
        sdk.setServiceNames(login: login, registration: registration)
        return (sdk.options.authServiceName, sdk.options.registrationServiceName)
    }

    /// A scenario's choice for a node AuthBridge cannot run (a script): from now on the node of
    /// `journey` named `node` (id or display name) takes `outcome`.
    public func setNodeOutcome(journey: String, node: String, outcome: String) throws(EmulatorError) {
        do {
            try embedded.setNodeOutcome(journey: journey, node: node, outcome: outcome)
        } catch {
            throw EmulatorError(param: error.param, reason: error.reason)
        }
    }

    public var lastOneTimeCode: Outbox.OneTimeCode? { embedded.outbox.lastOneTimeCode }
    public var lastSuspendLink: Outbox.SuspendLink? { embedded.outbox.lastSuspendLink }

    /// The app opening a suspended journey's e-mailed link: settles as the bridge's `next` does.
    public func resumeJourney(suspendedId: String) throws(BridgeError) -> JSONValue {
        try journeys.resume(suspendedId: suspendedId)
    }

    public var nativeState: NativeStateView { NativeStateView(self) }
}

extension World {
    /// What `emulator.expireTokens` did: how many of the user's live access tokens the server
    /// remembered, and whether a token the native side held (FRAuth's, or one of the successor
    /// SDK's slots) was theirs.
    public struct ExpiredTokens: Equatable, Sendable {
        public var accessTokens: Int
        public var native: Bool
    }

    /// Every access token issued to the user so far counts as expired on the daemon's clock:
    /// introspection calls them inactive and userinfo refuses them, and the native side's, when
    /// it is theirs, is refreshed at its next `getAccessToken` (RNPingOidc's at its next `token`).
    /// Refresh tokens and sessions stay.
    /// A backend checking the JWT's own `exp` offline still accepts it until then.
    public func expireTokens(username: String) throws(EmulatorError) -> ExpiredTokens {
        guard !isRemote else {
            throw EmulatorError(
                param: "username", reason: "expiring tokens needs the embedded server; a remote tenant keeps its own")
        }
        guard let user = embedded.users.find(username: username) else {
            throw EmulatorError(param: "username", reason: "no user named \(username)")
        }
        let count = embedded.expireAccessTokens(userId: user.id)
        var native = false
        if let token = sdk.accessToken, embedded.userId(ofAccessToken: token.value) == user.id {
            native = sdk.tokens.expireAccessToken()
        }
        // The successor SDK's keychain (RNPingOidc's token slots) likewise.
        for (slot, held) in pingStores.tokens where embedded.userId(ofAccessToken: held.value) == user.id {
            var token = held
            if token.expire(at: clock.now) {
                pingStores.tokens[slot] = token
                native = true
            }
        }
        return ExpiredTokens(accessTokens: count, native: native)
    }
}
