import AuthBridgeCore
import NativeSDK

/// `RNPingOidc`, the successor SDK's OIDC TurboModule (`oidc/src/NativeRNPingOidc.ts`; native
/// `oidc/ios/RNPingOidcCommon.swift`, `oidc/android/…/RNPingOidcCommon.kt`). Base clients hold an
/// `OidcClient`; web clients wrap one with the browser agent, emulated: `authorize` signs in with
/// the embedded server's SSO session, or answers its login page for the test user.
///
/// `createClient`/`createWebClient` are synchronous on the device. A host that must answer them
/// synchronously (the Node client) picks the id itself and passes it as an extra last argument;
/// without it the daemon draws one as the device does.
public final class RNPingOidcModule: NativeModule {
    public let name = "RNPingOidc"
    public let namespace = "RNPingOidc"
    private let sdk: PingSDK
    private let storages: StorageRegistry
    private var platform: Platform { sdk.platform }
    private var clients: [String: PingOidcClient] = [:]
    /// Web client id → the base client it wraps.
    private var webClients: [String: String] = [:]
    /// Android: the web clients whose flow holds a user (`OidcFlow.oidcUser`'s cache in its shared
    /// context; ping-android-sdk `foundation/oidc/src/main/kotlin/com/pingidentity/oidc/module/User.kt`):
    /// filled by a successful `authorize` and by any user lookup that found stored tokens, emptied
    /// only by `logout` (`UserDelegate.logout`) and by disposing the web client. `revoke` deletes
    /// the stored tokens but not the cached user, so `hasUser` stays true and `logout` resolves
    /// until the cache goes. In memory only, as on the device: a new web client or a restart
    /// starts without it.
    private var cachedUsers: Set<String> = []

    public init(sdk: PingSDK, storages: StorageRegistry) {
        self.sdk = sdk
        self.storages = storages
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("createClient") { args throws(BridgeError) in try self.createClient(args) },
            NativeMethod("createWebClient") { args throws(BridgeError) in try self.createWebClient(args) },
            NativeMethod("disposeClient") { args throws(BridgeError) in
                try self.dispose(args, "disposeClient", web: false)
            },
            NativeMethod("disposeWebClient") { args throws(BridgeError) in
                try self.dispose(args, "disposeWebClient", web: true)
            },
            NativeMethod("clientToken") { args throws(BridgeError) in
                let client = try self.base(args, "clientToken", code: "OIDC_TOKEN_ERROR")
                return try self.sdkCall("OIDC_TOKEN_ERROR") { () throws(PingSDKError) in
                    self.tokenMap(try client.token(agent: Self.noAgent))
                }
            },
            NativeMethod("clientRefresh") { args throws(BridgeError) in
                let client = try self.base(args, "clientRefresh", code: "OIDC_REFRESH_ERROR")
                return try self.sdkCall("OIDC_REFRESH_ERROR") { () throws(PingSDKError) in
                    self.tokenMap(try client.refresh())
                }
            },
            NativeMethod("clientUserinfo") { args throws(BridgeError) in
                let client = try self.base(
                    args, "clientUserinfo", code: "OIDC_USERINFO_ERROR", names: ["clientId", "cache"])
                let cache = try Arguments.bool(args, 1, "cache")
                return try self.sdkCall("OIDC_USERINFO_ERROR") { () throws(PingSDKError) in
                    try client.userinfo(cache: cache, agent: Self.noAgent)
                }
            },
            NativeMethod("clientRevoke") { args throws(BridgeError) in
                try self.base(args, "clientRevoke", code: "OIDC_REVOKE_ERROR").revoke()
                return .null
            },
            NativeMethod("clientEndSession") { args throws(BridgeError) in
                .bool(try self.base(args, "clientEndSession", code: "OIDC_LOGOUT_ERROR").endSession())
            },
            NativeMethod("authorize") { args throws(BridgeError) in try self.authorize(args) },
            NativeMethod("hasUser") { args throws(BridgeError) in
                let client = try self.web(args, "hasUser", code: "OIDC_HAS_USER_ERROR")
                return .bool(self.lookUpUser(client, webId: try Arguments.string(args, 0, "webClientId")))
            },
            NativeMethod("token") { args throws(BridgeError) in
                let client = try self.user(args, "token", code: "OIDC_TOKEN_ERROR")
                return try self.sdkCall("OIDC_TOKEN_ERROR") { () throws(PingSDKError) in
                    self.tokenMap(try client.token(agent: self.userAgent))
                }
            },
            NativeMethod("refresh") { args throws(BridgeError) in
                let client = try self.user(args, "refresh", code: "OIDC_REFRESH_ERROR")
                return try self.sdkCall("OIDC_REFRESH_ERROR") { () throws(PingSDKError) in
                    self.tokenMap(try client.refresh())
                }
            },
            NativeMethod("userinfo") { args throws(BridgeError) in
                let client = try self.user(
                    args, "userinfo", code: "OIDC_USERINFO_ERROR", names: ["webClientId", "cache"])
                let cache = try Arguments.bool(args, 1, "cache")
                return try self.sdkCall("OIDC_USERINFO_ERROR") { () throws(PingSDKError) in
                    try client.userinfo(cache: cache, agent: self.userAgent)
                }
            },
            NativeMethod("revoke") { args throws(BridgeError) in
                try self.user(args, "revoke", code: "OIDC_REVOKE_ERROR").revoke()
                return .null
            },
            NativeMethod("logout") { args throws(BridgeError) in
                // `user.logout()`: the cached user is dropped and sign-off runs (end-session, revoke).
                try self.user(args, "logout", code: "OIDC_LOGOUT_ERROR").endSession()
                self.cachedUsers.remove(try Arguments.string(args, 0, "webClientId"))
                return .null
            },
        ]
    }

    // MARK: clients

    func createClient(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("createClient", args, ["config", "clientId"], optional: 1)
        let config = try OidcConfigParser.parse(
            try Arguments.reader(args, 0, "config"), platform: platform, storageSlot: storageSlot)
        let id = try chosenId(args, position: 1)
        clients[id] = sdk.oidcClient(config)
        return .string(id)
    }

    /// The token slot of a `storageId`. Android's factory refuses an unknown id
    /// (`OidcClientFactory.kt` `applyStorageIfPresent`); iOS's `buildStorageDelegate` falls back
    /// to the default storage without a word (`OidcClientFactory.swift`).
    private func storageSlot(_ id: String) throws(BridgeError) -> String {
        if let slot = storages.slot(.oidc, id: id) { return slot }
        switch platform {
        case .ios: return PingStores.defaultKey
        case .android:
            throw .rejection(
                code: "IllegalArgumentException", message: "No storage config registered for id=\(id)", detail: nil)
        }
    }

    func createWebClient(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("createWebClient", args, ["clientId", "webClientId"], optional: 1)
        let base = try Arguments.string(args, 0, "clientId")
        guard clients[base] != nil else {
            switch platform {
            case .ios:
                throw .rejection(
                    code: "NSInvalidArgumentException", message: "No OIDC client found for id \(base)", detail: nil)
            case .android:
                throw .rejection(
                    code: "IllegalArgumentException", message: "Unknown OIDC client id: \(base)", detail: nil)
            }
        }
        let id = try chosenId(args, position: 1)
        webClients[id] = base
        return .string(id)
    }

    private func chosenId(_ args: [JSONValue], position: Int) throws(BridgeError) -> String {
        try Arguments.chosenId(args, position: position, sdk: sdk) {
            self.clients[$0] != nil || self.webClients[$0] != nil
        }
    }

    func dispose(_ args: [JSONValue], _ method: String, web: Bool) throws(BridgeError) -> JSONValue {
        try Arguments.count(method, args, [web ? "webClientId" : "clientId"])
        let id = try Arguments.string(args, 0, web ? "webClientId" : "clientId")
        if web {
            webClients[id] = nil
            cachedUsers.remove(id)
        } else {
            clients[id] = nil
        }
        return .null
    }

    private func base(
        _ args: [JSONValue], _ method: String, code: String, names: [String] = ["clientId"]
    ) throws(BridgeError) -> PingOidcClient {
        try Arguments.count(method, args, names)
        let id = try Arguments.string(args, 0, "clientId")
        guard let client = clients[id] else {
            throw PingRejection.reject(code, .state, "No OIDC client found for id \(id)")
        }
        return client
    }

    private func web(
        _ args: [JSONValue], _ method: String, code: String, names: [String] = ["webClientId"]
    ) throws(BridgeError) -> PingOidcClient {
        try Arguments.count(method, args, names)
        let id = try Arguments.string(args, 0, "webClientId")
        guard let base = webClients[id], let client = clients[base] else {
            throw PingRejection.reject(code, .state, "No OIDC web client found for id \(id)")
        }
        return client
    }

    /// A web client's user. Android refuses without one (`web.user()` is null: no cached user and
    /// no stored tokens). iOS falls back to the base client's user, which always exists
    /// (`RNPingOidcCommon.swift` `token`, `revoke`, `logout`…), so the SDK call itself decides: a
    /// token needs the base client's agent, which is not configured; revoke and logout have
    /// nothing to do and resolve.
    private func user(
        _ args: [JSONValue], _ method: String, code: String, names: [String] = ["webClientId"]
    ) throws(BridgeError) -> PingOidcClient {
        let client = try web(args, method, code: code, names: names)
        if platform == .android, !lookUpUser(client, webId: try Arguments.string(args, 0, "webClientId")) {
            throw PingRejection.reject(code, .state, "No authenticated user is available for this OIDC web client")
        }
        return client
    }

    /// `web.user()` / `hasUser`: iOS, whether tokens are stored; Android, the flow's cached user,
    /// else a user made from stored tokens, which is then cached (`prepareUser`).
    private func lookUpUser(_ client: PingOidcClient, webId: String) -> Bool {
        switch platform {
        case .ios: return client.storedToken != nil
        case .android:
            if client.storedToken != nil { cachedUsers.insert(webId) }
            return cachedUsers.contains(webId)
        }
    }

    /// What a web client's user falls back on when no token is stored. iOS: the base client's
    /// agent, which is not configured. Android: the cached user's own agent; after `authorize` it
    /// is the one-shot auth-code agent, already used (ping-android-sdk
    /// `foundation/oidc/src/main/kotlin/com/pingidentity/oidc/module/Oidc.kt`).
    private func userAgent() throws(PingSDKError) -> String {
        switch platform {
        case .ios: throw .authorize("Agent not configured")
        case .android: throw .authorize("Auth code already used, please start authorization flow again.")
        }
    }

    // MARK: authorize

    /// `authorize(webClientId, options)`: the browser step without a browser. The options become
    /// extra authorize parameters on a device; the embedded server's authorize takes none, so
    /// they are checked for shape and otherwise unused.
    func authorize(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let client = try web(args, "authorize", code: "OIDC_AUTHORIZE_ERROR", names: ["webClientId", "options"])
        _ = try Arguments.object(args, 1, "options")
        let webId = try Arguments.string(args, 0, "webClientId")
        do throws(PingSDKError) {
            try client.authorize(ssoToken: try sdk.browserSession())
            if platform == .android { cachedUsers.insert(webId) }
            return ["type": "success"]
        } catch {
            // iOS: the SDK turns every failed browser step into OidcError.unknown; Android: AuthorizeException.
            if case .api = error { throw PingRejection.sdk(error, code: "OIDC_AUTHORIZE_ERROR") }
            throw PingRejection.reject("OIDC_AUTHORIZE_ERROR", platform == .ios ? .unknown : .auth, error.message)
        }
    }

    /// The base client has no browser agent (ForgeRock/ping-react-native-sdk `packages/oidc/ios/RNPingOidcCommon.swift`).
    private static func noAgent() throws(PingSDKError) -> String { throw .authorize("Agent not configured") }

    private func sdkCall(_ code: String, _ body: () throws(PingSDKError) -> JSONValue) throws(BridgeError) -> JSONValue
    {
        do {
            return try body()
        } catch {
            throw PingRejection.sdk(error, code: code)
        }
    }

    /// `TokenMapUtils`: `{accessToken, idToken?, refreshToken?, tokenExpiry}`, absent values left
    /// out. `tokenExpiry` (Unix s) is the token's fixed expiry on iOS, `now + expiresIn` on Android.
    private func tokenMap(_ token: AccessToken) -> JSONValue {
        var map: JSONObject = ["accessToken": .string(token.value)]
        if let idToken = token.idToken { map["idToken"] = .string(idToken) }
        if let refreshToken = token.refreshToken { map["refreshToken"] = .string(refreshToken) }
        let expiry = platform == .ios ? token.expiresAt : sdk.now + Double(token.expiresIn)
        map["tokenExpiry"] = .int(Int64(expiry.rounded(.down)))
        return .object(map)
    }
}
