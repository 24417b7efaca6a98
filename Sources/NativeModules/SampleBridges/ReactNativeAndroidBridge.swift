import AuthBridgeCore
import NativeSDK

/// `FRAuthSampleBridge` as React Native sees it on Android (bridge-api.md §3.1, Kotlin RN-D/E):
/// steps are Gson strings with `frCallbacks`/`pageHeader`/`pageDescription`, success an object
/// with `sessionToken`, every rejection coded `error` with the SDK's message (for an AM failure,
/// AM's error body as text), values applied by position *and* type.
public final class ReactNativeAndroidBridge: JourneyModule {
    public let name = "FRAuthSampleBridge"
    private let sdk: AuthSDK
    private let callbacks: CallbackHandling
    private let dialect = Dialect.reactNativeAndroid

    public init(sdk: AuthSDK, callbacks: CallbackHandling = .sample) {
        self.sdk = sdk
        self.callbacks = callbacks
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("start") { args throws(BridgeError) in
                try Arguments.none("start", args)
                self.sdk.start()
                return .string(self.dialect.startResult)
            },
            NativeMethod("login") { args throws(BridgeError) in try self.journey(args, method: "login", registration: false) },
            NativeMethod("register") { args throws(BridgeError) in try self.journey(args, method: "register", registration: true) },
            NativeMethod("next") { args throws(BridgeError) in try self.next(args) },
            NativeMethod("getUserInfo") { args throws(BridgeError) in try self.getUserInfo(args) },
            NativeMethod("getAccessToken") { args throws(BridgeError) in try self.getAccessToken(args) },
            NativeMethod("logout") { args throws(BridgeError) in
                try Arguments.none("logout", args)
                self.sdk.logout()
                return .null
            },
        ]
    }

    func journey(_ args: [JSONValue], method: String, registration: Bool) throws(BridgeError) -> JSONValue {
        try Arguments.none(method, args)
        return resolve(try dialect.settle(.startJourney) { () throws(SDKError) in try sdk.startJourney(registration: registration) })
    }

    func next(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let text = try Arguments.string("next", args, name: "the step payload")
        let payload: StepPayload
        do {
            payload = try StepPayload.decode(text)
        } catch {
            throw dialect.unreadablePayload(error.detail)
        }
        guard var node = sdk.currentNode else { throw dialect.noJourney }
        try CallbackValues.apply(payload, to: &node, handling: callbacks, sample: .android(.kotlin), sdk: sdk)
        return resolve(try dialect.settle(.submit) { () throws(SDKError) in try sdk.submit(node) })
    }

    public func resume(suspendedId: String) throws(BridgeError) -> JSONValue {
        resolve(try dialect.settle(.resume) { () throws(SDKError) in try sdk.resume(suspendedId: suspendedId) })
    }

    func getUserInfo(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("getUserInfo", args)
        guard sdk.hasUser else { throw dialect.noUser(.userInfo) }
        return Self.writableMap(try dialect.settle(.userInfo) { () throws(SDKError) in try sdk.userInfo() })
    }

    func getAccessToken(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("getAccessToken", args)
        guard sdk.hasUser else { throw dialect.noUser(.accessToken) }
        let token = try dialect.settle(.accessToken) { () throws(SDKError) in try sdk.freshAccessToken() }
        return .string(StepJSON.gson.string(token.androidJSON(realm: sdk.options.realm)))
    }

    private func resolve(_ outcome: AuthSDK.JourneyOutcome) -> JSONValue {
        switch outcome {
        case .step(let node):
            return .string(StepJSON.android(node, variant: .kotlin))
        case .success(let token):
            return ["type": "LoginSuccess", "sessionToken": .string(StepJSON.gson.string(token.androidJSON(realm: sdk.options.realm)))]
        }
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
