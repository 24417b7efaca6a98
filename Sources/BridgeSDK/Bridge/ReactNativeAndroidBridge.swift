import AuthBridgeCore

/// `FRAuthSampleBridge` as React Native sees it on Android (bridge-api.md §3.1, Kotlin RN-D/E):
/// steps are Gson strings with `frCallbacks`/`pageHeader`/`pageDescription`, success an object
/// with `sessionToken`, every rejection coded `error` with the SDK's message (for an AM failure,
/// AM's error body as text), values applied by position *and* type.
public final class ReactNativeAndroidBridge {
    private let sdk: AuthSDK
    private let callbacks: CallbackHandling

    public init(sdk: AuthSDK, callbacks: CallbackHandling = .sample) {
        self.sdk = sdk
        self.callbacks = callbacks
    }

    static let noUser = "Current user is null. Not logged in or SDK not initialized yet"

    public var methods: [BridgeMethod] {
        [
            BridgeMethod(name: "start") { args throws(BridgeError) in
                try Arguments.none("start", args)
                self.sdk.start()
                return "SDK Initialized"
            },
            BridgeMethod(name: "login") { args throws(BridgeError) in try self.journey(args, method: "login", registration: false) },
            BridgeMethod(name: "register") { args throws(BridgeError) in try self.journey(args, method: "register", registration: true) },
            BridgeMethod(name: "next") { args throws(BridgeError) in try self.next(args) },
            BridgeMethod(name: "getUserInfo") { args throws(BridgeError) in try self.getUserInfo(args) },
            BridgeMethod(name: "getAccessToken") { args throws(BridgeError) in try self.getAccessToken(args) },
            BridgeMethod(name: "logout") { args throws(BridgeError) in
                try Arguments.none("logout", args)
                self.sdk.logout()
                return .null
            },
        ]
    }

    func journey(_ args: [JSONValue], method: String, registration: Bool) throws(BridgeError) -> JSONValue {
        try Arguments.none(method, args)
        do {
            return resolve(try sdk.startJourney(registration: registration))
        } catch {
            throw .reject("error", Self.message(of: error))
        }
    }

    func next(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let text = try Arguments.string("next", args, name: "the step payload")
        let payload: StepPayload
        do {
            payload = try StepPayload.decode(text)
        } catch {
            throw .reject("error", "parsing response failed", detail: error.detail)
        }
        guard var node = sdk.currentNode else { throw .reject("error", "current node or callbacks are null") }
        try CallbackValues.apply(payload, to: &node, handling: callbacks, sample: .android(.kotlin), sdk: sdk)
        do {
            return resolve(try sdk.submit(node))
        } catch {
            throw .reject("error", Self.message(of: error))
        }
    }

    /// The app opened a suspended journey's link: settles as `next` would.
    public func resume(suspendedId: String) throws(BridgeError) -> JSONValue {
        do {
            return resolve(try sdk.resume(suspendedId: suspendedId))
        } catch {
            throw .reject("error", Self.message(of: error))
        }
    }

    func getUserInfo(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("getUserInfo", args)
        guard sdk.hasUser else { throw .reject("error", Self.noUser) }
        do {
            return Self.writableMap(try sdk.userInfo())
        } catch {
            throw .reject("error", Self.message(of: error))
        }
    }

    func getAccessToken(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("getAccessToken", args)
        guard sdk.hasUser else { throw .reject("error", Self.noUser) }
        do {
            return .string(StepJSON.gson.string(try sdk.freshAccessToken().androidJSON(realm: sdk.options.realm)))
        } catch {
            throw .reject("error", Self.message(of: error))
        }
    }

    private func resolve(_ outcome: AuthSDK.JourneyOutcome) -> JSONValue {
        switch outcome {
        case .step(let node):
            return .string(StepJSON.android(node, variant: .kotlin))
        case .success(let token):
            return ["type": "LoginSuccess", "sessionToken": .string(StepJSON.gson.string(token.androidJSON(realm: sdk.options.realm)))]
        }
    }

    /// The Android SDK's exception message: for an AM error, AM's body as text
    /// (`AuthenticationException(statusCode, error, body)`), else the SDK's message.
    static func message(of error: SDKError) -> String {
        if case .authenticationFailed(let body) = error { return JSONWriter().string(body) }
        return error.message
    }

    /// `UserInfo.raw` turned into a WritableMap: objects and arrays kept, Boolean/Integer/Double/
    /// String kept, a Long (outside Int32) and JSON null become strings.
    static func writableMap(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object): return .object(JSONObject(object.members.map { ($0.key, writableMap($0.value)) }))
        case .array(let list): return .array(list.map(writableMap))
        case .null: return "null"
        case .int(let i) where i < Int64(Int32.min) || i > Int64(Int32.max): return .string(String(i))
        default: return value
        }
    }
}
