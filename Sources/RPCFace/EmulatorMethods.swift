import AuthBridgeCore
import Host
import JSONRPC
import NativeModules

/// `emulator.*`: the Host's emulator operations as JSON-RPC methods with named params.
extension RPCFace {
    func registerEmulatorMethods() {
        register("emulator.advanceClock") { [unowned self] call throws(JSONRPCError) in
            let seconds = try NamedParams(call).number("seconds")
            let now = try unit { world in Result { () throws(EmulatorError) in try world.advanceClock(by: seconds) } }
            return ["now": .double(try Self.checked(now))]
        }
        register("emulator.addUser") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let username = try params.string("username")
            let password = try params.string("password")
            var attributes: JSONObject = [:]
            // Further profile attributes by their IDM names, flat values only (what a node reads:
            // `passwordResetRequired`, `passwordGraceLogins`, …); the named ones below win.
            for member in try params.optionalObject("attributes")?.members ?? [] {
                switch member.value {
                case .string, .bool, .int, .double: attributes[member.key] = member.value
                default:
                    throw .invalidParams(
                        "attributes.\(member.key) must be a string, number or boolean", param: "attributes")
                }
            }
            if let given = try params.optionalString("givenName") { attributes["givenName"] = .string(given) }
            if let family = try params.optionalString("familyName") { attributes["sn"] = .string(family) }
            if let email = try params.optionalString("email") { attributes["mail"] = .string(email) }
            let added = try unit { world in
                Result { () throws(EmulatorError) in
                    let user = try world.addUser(username: username, password: password, attributes: attributes)
                    return (username: user.username, id: user.id)
                }
            }
            let user = try Self.checked(added)
            return ["username": .string(user.username), "id": .string(user.id)]
        }
        register("emulator.nativeLogout") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return ["loggedOut": .bool(try unit { world in world.nativeLogout() })]
        }
        register("emulator.requestToken") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            let request = try unit { world in world.requestToken() }
            return ["requestId": .string(request.requestId), "delivered": .bool(request.delivered)]
        }
        register("emulator.revokeSession") { [unowned self] call throws(JSONRPCError) in
            let username = try NamedParams(call).optionalString("username")
            let ended = try Self.checked(
                try unit { world in Result { () throws(EmulatorError) in try world.revokeSessions(username: username) }
                })
            return ["sessionsEnded": .int(Int64(ended.sessions)), "grantsRevoked": .int(Int64(ended.grants))]
        }
        register("emulator.expireTokens") { [unowned self] call throws(JSONRPCError) in
            let username = try NamedParams(call).string("username")
            let expired = try Self.checked(
                try unit { world in Result { () throws(EmulatorError) in try world.expireTokens(username: username) } })
            return ["accessTokensExpired": .int(Int64(expired.accessTokens)), "nativeExpired": .bool(expired.native)]
        }
        register("emulator.setServiceNames") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let login = try params.optionalString("authServiceName")
            let registration = try params.optionalString("registrationServiceName")
            let names = try Self.checked(
                try unit { world in
                    Result { () throws(EmulatorError) in
                        try world.setServiceNames(login: login, registration: registration)
                    }
                })
            return ["authServiceName": .string(names.login), "registrationServiceName": .string(names.registration)]
        }
        // Served only when a loaded journey has a node whose outcome a scenario decides, so
        // daemons without one list the methods they always did.
        if host.view.hasScenarioNodes {
            register("emulator.setNodeOutcome") { [unowned self] call throws(JSONRPCError) in
                let params = try NamedParams(call)
                let (journey, node, outcome) = (
                    try params.string("journey"), try params.string("node"), try params.string("outcome")
                )
                try Self.checked(
                    try unit { world in
                        Result { () throws(EmulatorError) in
                            try world.setNodeOutcome(journey: journey, node: node, outcome: outcome)
                        }
                    })
                return ["journey": .string(journey), "node": .string(node), "outcome": .string(outcome)]
            }
        }
        register("emulator.lastOneTimeCode") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return try unit { world in world.lastOneTimeCode?.json ?? .null }
        }
        register("emulator.lastFailure") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return try unit { world in world.embedded.lastFailure.map { .object($0.json) } ?? .null }
        }
        register("emulator.lastSuspendedJourney") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return try unit { world in world.lastSuspendLink?.json ?? .null }
        }
        register("emulator.resumeJourney") { [unowned self] call throws(JSONRPCError) in
            let suspendedId = try NamedParams(call).string("suspendedId")
            let resumed = try unit { world in
                Result { () throws(BridgeError) in try world.resumeJourney(suspendedId: suspendedId) }
            }
            return try resumed.mapError(Self.json).get()
        }
        register("emulator.state") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return Self.json(try unit { world in world.nativeState })
        }
        registerDeviceMethods()
        registerFaultMethods()
        registerSeedMethods()
        registerDavinciMethods()
        registerSigningMethods()
        // Replaces the handlers above, keeping the method list (and its order) as it was.
        if host.isRemote { registerRemoteRefusals() }
    }

    /// What only the embedded server can do or tell: in remote mode these answer −32601 saying
    /// why, instead of acting on an emulator the app is not talking to.
    static let embeddedOnly =
        [
            "emulator.addUser", "emulator.revokeSession", "emulator.expireTokens", "emulator.lastOneTimeCode",
            "emulator.lastSuspendedJourney",
            "emulator.lastFailure", "emulator.import", "emulator.export", "emulator.rotateSigningKeys",
        ] + davinciMethods

    func registerRemoteRefusals() {
        for name in Self.embeddedOnly {
            register(name) { [unowned host] _ throws(JSONRPCError) in
                throw JSONRPCError(
                    code: JSONRPCError.methodNotFoundCode,
                    message:
                        "\(name) cannot apply to a real tenant: server.kind is remote (\(host.configuration.remote?.url ?? "")); "
                        + "do this in the tenant's admin console or API, or run on the embedded server")
            }
        }
    }

    /// An emulator operation's outcome: its bad argument is an invalid param, named.
    static func checked<T>(_ outcome: Result<T, EmulatorError>) throws(JSONRPCError) -> T {
        try outcome.mapError { error in JSONRPCError.invalidParams(error.reason, param: error.param) }.get()
    }

    /// Tokens are cut to a prefix: enough to tell two apart, not enough to use.
    static func json(_ view: NativeStateView) -> JSONValue {
        var tokens: JSONValue = .null
        if let token = view.tokens {
            tokens = [
                "accessToken": .string(prefix(token.value)), "refreshToken": JSONValue(token.refreshToken.map(prefix)),
                "idToken": JSONValue(token.idToken.map(prefix)), "tokenType": .string(token.tokenType),
                "scope": .string(token.scope), "expiresAt": .int(Int64(token.expiresAt.rounded(.down))),
                "expiresIn": .int(Int64((token.expiresAt - view.now).rounded(.down))), "stale": .bool(view.stale),
            ]
        }
        return [
            "now": .double(view.now), "generation": .int(view.generation), "ready": .bool(view.ready),
            "pendingTokenRequest": JSONValue(view.pendingTokenRequest), "tokens": tokens,
            "ssoSession": .bool(view.hasSSOSession),
            "server": [
                "users": .int(Int64(view.users)), "sessions": .int(Int64(view.sessions)),
                "refreshCount": .int(Int64(view.refreshCount)),
            ],
        ]
    }

    private static func prefix(_ token: String) -> String { String(token.prefix(12)) + "..." }
}
