import AuthBridgeCore
import BridgeSDK
import EmbeddedAM
import JSONRPC

/// `emulator.*`: what a test does to the world around the app (time, users, the server, the
/// native side acting on its own) and what it may read of the native state.
extension Daemon {
    func registerEmulatorMethods() {
        rpc.register("emulator.advanceClock") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let seconds = try params.number("seconds")
            guard seconds >= 0 else { throw .invalidParams("seconds must not be negative", param: "seconds") }
            guard let virtual = clock as? VirtualClock else {
                throw .invalidParams("the clock is the system clock; start with --clock virtual to move time", param: "seconds")
            }
            virtual.advance(by: seconds)
            return ["now": .double(virtual.now)]
        }
        rpc.register("emulator.addUser") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let username = try params.string("username")
            let password = try params.string("password")
            var attributes: JSONObject = [:]
            if let given = try params.optionalString("givenName") { attributes["givenName"] = .string(given) }
            if let family = try params.optionalString("familyName") { attributes["sn"] = .string(family) }
            if let email = try params.optionalString("email") { attributes["mail"] = .string(email) }
            return try addUser(username: username, password: password, attributes: attributes)
        }
        rpc.register("emulator.nativeLogout") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return ["loggedOut": .bool(sdk.nativeLogout())]
        }
        rpc.register("emulator.requestToken") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            let request = sync.requestToken()
            return ["requestId": .string(request.requestId), "delivered": .bool(request.delivered)]
        }
        rpc.register("emulator.revokeSession") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            return try revokeSession(username: try params.optionalString("username"))
        }
        rpc.register("emulator.setServiceNames") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let login = try params.optionalString("authServiceName")
            let registration = try params.optionalString("registrationServiceName")
            for (key, name) in [("authServiceName", login), ("registrationServiceName", registration)] {
                if let name, !server.journeyNames.contains(name) {
                    throw .invalidParams("\(key): no journey named \(name) (available: \(server.journeyNames.joined(separator: ", ")))", param: key)
                }
            }
            sdk.setServiceNames(login: login, registration: registration)
            return ["authServiceName": .string(sdk.options.authServiceName), "registrationServiceName": .string(sdk.options.registrationServiceName)]
        }
        rpc.register("emulator.lastOneTimeCode") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return server.outbox.lastOneTimeCode?.json ?? .null
        }
        rpc.register("emulator.lastSuspendedJourney") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return server.outbox.lastSuspendLink?.json ?? .null
        }
        rpc.register("emulator.resumeJourney") { [unowned self] call throws(JSONRPCError) in
            let suspendedId = try NamedParams(call).string("suspendedId")
            // The app opening the e-mailed link: settles like the flavor's next().
            let resume = BridgeMethod(name: "emulator.resumeJourney") { _ throws(BridgeError) in try self.resumeJourney(suspendedId) }
            return try Self.invoke(resume, [])
        }
        rpc.register("emulator.state") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return stateView
        }
    }

    private func addUser(username: String, password: String, attributes: JSONObject) throws(JSONRPCError) -> JSONValue {
        do {
            let user = try server.users.add(username: username, password: password, attributes: attributes)
            return ["username": .string(user.username), "id": .string(user.id)]
        } catch {
            switch error {
            case .duplicate: throw .invalidParams("a user named \(username) already exists", param: "username")
            case .emptyUsername: throw .invalidParams("username must not be empty", param: "username")
            case .emptyPassword: throw .invalidParams("password must not be empty", param: "password")
            }
        }
    }

    /// Server-side revocation of a user's sessions and grants; the native side is not told and
    /// finds out on its next refresh. Without a username, the user the native tokens belong to.
    private func revokeSession(username: String?) throws(JSONRPCError) -> JSONValue {
        let userId: String
        if let username {
            guard let user = server.users.find(username: username) else {
                throw .invalidParams("no user named \(username)", param: "username")
            }
            userId = user.id
        } else {
            guard let token = sdk.accessToken, let id = server.userId(ofAccessToken: token.value) else {
                throw .invalidParams("the native side holds no tokens of this server; name the user", param: "username")
            }
            userId = id
        }
        let ended = server.revokeSessions(userId: userId)
        return ["sessionsEnded": .int(Int64(ended.sessions)), "grantsRevoked": .int(Int64(ended.grants))]
    }

    /// A read-only view of the native state for assertions. Tokens are cut to a prefix: enough
    /// to tell two apart, not enough to use.
    private var stateView: JSONValue {
        let now = clock.now
        let (token, ssoToken, generation) = sdk.tokens.withState { ($0, $1, $2) }
        var tokens: JSONValue = .null
        if let token {
            tokens = [
                "accessToken": .string(Self.prefix(token.value)), "refreshToken": JSONValue(token.refreshToken.map(Self.prefix)),
                "idToken": JSONValue(token.idToken.map(Self.prefix)), "tokenType": .string(token.tokenType),
                "scope": .string(token.scope), "expiresAt": .int(Int64(token.expiresAt.rounded(.down))),
                "expiresIn": .int(Int64((token.expiresAt - now).rounded(.down))),
                "stale": .bool(token.isStale(now: now, threshold: sdk.options.oauthThreshold)),
            ]
        }
        return [
            "now": .double(now), "generation": .int(generation), "ready": .bool(sync.isReady),
            "pendingTokenRequest": JSONValue(sync.pendingTokenRequest), "tokens": tokens,
            "ssoSession": .bool(ssoToken != nil),
            "server": [
                "users": .int(Int64(server.users.count)), "sessions": .int(Int64(server.sessions.count)),
                "refreshCount": .int(Int64(server.refreshCount)),
            ],
        ]
    }

    private static func prefix(_ token: String) -> String { String(token.prefix(12)) + "..." }
}
