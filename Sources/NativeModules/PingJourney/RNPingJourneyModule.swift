import AuthBridgeCore
import NativeSDK

/// `RNPingJourney`, the successor SDK's journey TurboModule (`journey/src/NativeRNPingJourney.ts`;
/// native `journey/ios/RNPingJourneyCommon.swift` and `journey/android/…/RNPingJourneyCommon.kt`).
/// Several journey clients live at once, keyed by the id `configureJourney` resolves; each holds
/// its current ContinueNode. Server outcomes resolve as nodes; only bad calls reject.
public final class RNPingJourneyModule: NativeModule {
    public let name = "RNPingJourney"
    public let namespace = "RNPingJourney"
    private let sdk: PingSDK
    private let storages: StorageRegistry
    private var platform: Platform { sdk.platform }
    /// Shared with the extension modules, which answer the current node's callbacks.
    private let journeys: PingJourneys

    public init(_ context: PingModuleContext) {
        sdk = context.sdk
        storages = context.storages
        journeys = context.journeys
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("configureJourney") { args throws(BridgeError) in try self.configure(args) },
            NativeMethod("start") { args throws(BridgeError) in try self.start(args) },
            NativeMethod("next") { args throws(BridgeError) in try self.next(args) },
            NativeMethod("resume") { args throws(BridgeError) in try self.resume(args) },
            NativeMethod("getSession") { args throws(BridgeError) in
                try self.session(args, method: "getSession", refresh: false)
            },
            NativeMethod("refresh") { args throws(BridgeError) in
                try self.session(args, method: "refresh", refresh: true)
            },
            NativeMethod("revoke") { args throws(BridgeError) in try self.revoke(args) },
            NativeMethod("userinfo") { args throws(BridgeError) in try self.userinfo(args) },
            NativeMethod("ssoToken") { args throws(BridgeError) in try self.ssoToken(args) },
            NativeMethod("logout") { args throws(BridgeError) in try self.logout(args) },
            NativeMethod("dispose") { args throws(BridgeError) in try self.dispose(args) },
        ]
    }

    // MARK: configure and journeys

    func configure(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("configureJourney", args, ["config"])
        var config = try JourneyConfigParser.parse(try Arguments.reader(args, 0, "config"), platform: platform)
        let sessionKey = try storageSlots(&config)
        let id = sdk.newId()
        journeys[id] = PingJourneys.Entry(client: sdk.journey(sessionKey: sessionKey, oidc: config.oidc), node: nil)
        return .string(id)
    }

    /// The factory resolves the storage handles after parsing (`JOURNEY_INIT_ERROR`, argument):
    /// iOS the session handle, then the OIDC one (`JourneyClientFactory.swift` `build`); Android
    /// the OIDC one inside the OIDC module's block, then the session one (`JourneyClientFactory.kt`).
    /// Sets the OIDC token slot and returns the session slot.
    private func storageSlots(_ config: inout JourneyConfig) throws(BridgeError) -> String {
        func slot(_ kind: StorageRegistry.Kind, _ id: String?, _ what: String) throws(BridgeError) -> String? {
            guard let id else { return nil }
            guard let slot = storages.slot(kind, id: id) else {
                throw PingRejection.journey(.initialize, .argument, "No \(what) storage config registered for id=\(id)")
            }
            return slot
        }
        var sessionKey: String?
        if platform == .ios { sessionKey = try slot(.session, config.sessionStorageId, "session") }
        if let tokens = try slot(.oidc, config.oidcStorageId, "OIDC") { config.oidc?.storageKey = tokens }
        if platform == .android { sessionKey = try slot(.session, config.sessionStorageId, "session") }
        return sessionKey ?? PingStores.defaultKey
    }

    /// `start(journeyId, journeyName, options?)`. iOS checks the name before the id, Android the
    /// id before the name (`RNPingJourneyCommon.start` on each).
    func start(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("start", args, ["journeyId", "journeyName", "options"], optional: 1)
        let id = try Arguments.string(args, 0, "journeyId")
        let name = try Arguments.string(args, 1, "journeyName")
        var options: JSONObject = [:]
        if args.count == 3, args[2] != .null { options = try Arguments.object(args, 2, "options") }
        let checkName = { () throws(BridgeError) in
            if name.trimmingSpaces.isEmpty {
                throw PingRejection.journey(.start, .argument, "Journey name must not be empty")
            }
        }
        if platform == .ios { try checkName() }
        guard let entry = journeys[id] else { throw PingRejection.journeyNotFound(id) }
        if platform == .android { try checkName() }
        // A missing or non-boolean option counts as false (`options?["forceAuth"] as? Bool ?? false`).
        let node = entry.client.start(
            name, forceAuth: options["forceAuth"]?.boolValue ?? false,
            noSession: options["noSession"]?.boolValue ?? false)
        return settle(node, id: id)
    }

    /// `next(journeyId, nodeId, input)`: `nodeId` is ignored by both SDKs. iOS parses the input
    /// before it looks for the node; Android after.
    func next(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("next", args, ["journeyId", "nodeId", "input"])
        let id = try Arguments.string(args, 0, "journeyId")
        _ = try Arguments.string(args, 1, "nodeId")
        let input = JSONValue.object(try Arguments.object(args, 2, "input"))
        let applier = JourneyCallbackValueApplier(platform: platform)
        let noNode = PingRejection.journey(.state, .state, "No active ContinueNode found for journey id=\(id)")
        var mutations: [JourneyCallbackValueApplier.Mutation] = []
        if platform == .ios { mutations = try applier.parse(input) }
        guard var node = journeys[id]?.node, let client = journeys[id]?.client else { throw noNode }
        if platform == .android { mutations = try applier.parse(input) }
        do {
            try applier.apply(mutations, to: &node)
        } catch {
            journeys[id]?.node = node  // what was set before the failure stays set
            throw error
        }
        return settle(client.next(node), id: id)
    }

    /// `resume(journeyId, uri)` with the URI's `suspendedId`. iOS checks the URI first, Android the id.
    func resume(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("resume", args, ["journeyId", "uri"])
        let id = try Arguments.string(args, 0, "journeyId")
        let uri = try Arguments.string(args, 1, "uri")
        let checkURI = { () throws(BridgeError) in
            if uri.trimmingSpaces.isEmpty {
                throw PingRejection.journey(.resume, .argument, "Resume URI must not be empty")
            }
            // `URL(string:)` refuses a string with spaces or other characters a URL cannot hold.
            if self.platform == .ios, uri.contains(where: { $0 == " " || $0 == "\"" || $0 == "<" || $0 == ">" }) {
                throw PingRejection.journey(.resume, .argument, "Resume URI is invalid")
            }
        }
        if platform == .ios { try checkURI() }
        guard let entry = journeys[id] else { throw PingRejection.journeyNotFound(id) }
        if platform == .android { try checkURI() }
        let query = PercentEncoding.queryParameters(of: uri)
        return settle(entry.client.resume(suspendedId: query["suspendedId"].flatMap { $0.isEmpty ? nil : $0 }), id: id)
    }

    /// The node becomes the journey's current one when it continues; any other clears it.
    private func settle(_ node: PingNode, id: String) -> JSONValue {
        if case .next(let next) = node { journeys[id]?.node = next } else { journeys[id]?.node = nil }
        return JourneyNodeMapper.map(node, platform: platform)
    }

    // MARK: user

    private func client(_ args: [JSONValue], _ method: String) throws(BridgeError) -> PingJourneyClient {
        try Arguments.count(method, args, ["journeyId"])
        let id = try Arguments.string(args, 0, "journeyId")
        guard let entry = journeys[id] else { throw PingRejection.journeyNotFound(id) }
        return entry.client
    }

    /// `getSession`/`refresh`: `{accessToken, refreshToken?, expiresIn, userInfo?}`, or null with
    /// no user (no OIDC configured, or no session and no stored token).
    func session(_ args: [JSONValue], method: String, refresh: Bool) throws(BridgeError) -> JSONValue {
        let client = try client(args, method)
        guard client.hasUser, let oidc = client.oidc else { return .null }
        do throws(PingSDKError) {
            let token = refresh ? try oidc.refresh() : try oidc.token(agent: client.sessionAgent)
            var result: JSONObject = ["accessToken": .string(token.value)]
            if let refreshToken = token.refreshToken { result["refreshToken"] = .string(refreshToken) }
            result["expiresIn"] = .int(token.expiresIn)
            if let claims = try? oidc.userinfo(cache: false, agent: client.sessionAgent) { result["userInfo"] = claims }
            return .object(result)
        } catch {
            throw userError(error)
        }
    }

    func userinfo(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let client = try client(args, "userinfo")
        guard client.hasUser, let oidc = client.oidc else { return .null }
        do throws(PingSDKError) {
            return try oidc.userinfo(cache: false, agent: client.sessionAgent)
        } catch {
            throw userError(error)
        }
    }

    /// iOS maps the OIDC error (`JourneyErrorMapper.map`); Android reports every user failure
    /// as auth_error with the error's text.
    private func userError(_ error: PingSDKError) -> BridgeError {
        switch platform {
        case .ios: return PingRejection.sdk(error, code: JourneyErrorCode.user.rawValue)
        case .android: return PingRejection.journey(.user, .auth, error.message)
        }
    }

    func revoke(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try client(args, "revoke").oidc?.revoke()
        return true
    }

    func ssoToken(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        guard let session = try client(args, "ssoToken").session else { return .null }
        return [
            "value": .string(session.value), "successUrl": .string(session.successUrl), "realm": .string(session.realm),
        ]
    }

    /// `user?.logout()`, then the node is cleared. iOS has a user only with OIDC configured, so
    /// without it the AM session stays; Android builds a user from the session alone.
    func logout(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let client = try client(args, "logout")
        if client.hasUser || (platform == .android && client.session != nil) { client.logout() }
        journeys[args[0].stringValue!]?.node = nil
        return true
    }

    /// Forgets the journey; an unknown id resolves too.
    func dispose(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("dispose", args, ["journeyId"])
        journeys[try Arguments.string(args, 0, "journeyId")] = nil
        return .null
    }
}
