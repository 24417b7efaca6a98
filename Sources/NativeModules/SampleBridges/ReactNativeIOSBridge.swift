import AuthBridgeCore
import NativeSDK

/// `FRAuthSampleBridge` as React Native sees it on iOS (bridge-api.md §2, variant RN-E):
/// a step is a compact JSON *string*, success an *object* with pretty-printed tokens, user info an
/// object, rejections coded `Error` (journeys) or `error` (user and tokens).
public final class ReactNativeIOSBridge: JourneyModule {
    public let name = "FRAuthSampleBridge"
    private let sdk: AuthSDK
    /// The real `start()` resolves after a 2 s `asyncAfter`; 0 by default, settable to emulate it.
    private let startDelay: Double
    private let callbacks: CallbackHandling
    private let dialect = Dialect.reactNativeIOS

    public init(sdk: AuthSDK, startDelay: Double = 0, callbacks: CallbackHandling = .sample) {
        self.sdk = sdk
        self.startDelay = startDelay
        self.callbacks = callbacks
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("start", delay: startDelay) { args throws(BridgeError) in
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
        // The original indexes payload callbacks by the node's positions and crashes when there
        // are fewer; AuthBridge rejects a payload that does not match the step instead.
        guard payload.callbacks.count == node.callbacks.count else {
            throw dialect.unreadablePayload("the step has \(node.callbacks.count) callbacks, the payload has \(payload.callbacks.count)")
        }
        try CallbackValues.apply(payload, to: &node, handling: callbacks, sample: .ios(.reactNative), sdk: sdk)
        return resolve(try dialect.settle(.submit) { () throws(SDKError) in try sdk.submit(node) })
    }

    public func resume(suspendedId: String) throws(BridgeError) -> JSONValue {
        resolve(try dialect.settle(.resume) { () throws(SDKError) in try sdk.resume(suspendedId: suspendedId) })
    }

    func getUserInfo(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("getUserInfo", args)
        guard sdk.hasUser else { throw dialect.noUser(.userInfo) }
        return try dialect.settle(.userInfo) { () throws(SDKError) in try sdk.userInfo() }
    }

    func getAccessToken(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("getAccessToken", args)
        guard sdk.hasUser else { throw dialect.noUser(.accessToken) }
        let token = try dialect.settle(.accessToken) { () throws(SDKError) in try sdk.freshAccessToken() }
        return .string(StepJSON.apple.string(token.iosJSON))
    }

    private func resolve(_ outcome: AuthSDK.JourneyOutcome) -> JSONValue {
        switch outcome {
        case .step(let node):
            return .string(StepJSON.ios(node))
        case .success(let token):
            return ["type": "LoginSuccess", "tokens": .string(StepJSON.applePretty.string(token.iosJSON))]
        }
    }
}
