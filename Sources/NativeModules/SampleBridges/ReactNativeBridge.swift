import AuthBridgeCore
import NativeSDK

/// `FRAuthSampleBridge` as React Native sees it (docs/flavors.md: iOS RN-E, Android Kotlin
/// RN-D/E). The two platforms share the method set and its order; what differs is how results
/// are encoded (`ReactNativeResults`), how rejections read (`Dialect`), and how `next` copies
/// JS values onto the node.
public final class ReactNativeBridge: JourneyModule {
    public let name = "FRAuthSampleBridge"
    private let sdk: AuthSDK
    private let flavor: Flavor
    private let dialect: Dialect
    private let results: ReactNativeResults
    /// The real iOS `start()` resolves after a 2 s `asyncAfter`; 0 by default, settable to emulate it.
    private let startDelay: Double
    private let callbacks: CallbackHandling
    /// The app's hands on the emulated phone, for `--callbacks complete`.
    private let device: DeviceAnswers?
    /// The last token answered and its JSON text. JS asks for the same token many times between
    /// refreshes, and encoding it was most of the call: its text is built once per token set, so
    /// each answer escapes the tokens once (into the result string), not twice.
    private var answeredToken: (token: AccessToken, text: String)?

    /// `flavor` is `.reactNativeIOS` or `.reactNativeAndroid`; `startDelay` applies to iOS only.
    public init(
        sdk: AuthSDK, flavor: Flavor, startDelay: Double = 0, callbacks: CallbackHandling = .sample,
        device: DeviceAnswers? = nil
    ) {
        precondition(
            flavor == .reactNativeIOS || flavor == .reactNativeAndroid, "a React Native bridge is rn-ios or rn-android")
        self.sdk = sdk
        self.flavor = flavor
        dialect = flavor.dialect
        results = flavor == .reactNativeIOS ? .ios : .android(realm: sdk.options.realm)
        self.startDelay = flavor == .reactNativeIOS ? startDelay : 0
        self.callbacks = callbacks
        self.device = device
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("start", delay: startDelay) { args throws(BridgeError) in
                try Arguments.none("start", args)
                self.sdk.start()
                return .string(self.dialect.startResult)
            },
            NativeMethod("login") { args throws(BridgeError) in
                try self.journey(args, method: "login", registration: false)
            },
            NativeMethod("register") { args throws(BridgeError) in
                try self.journey(args, method: "register", registration: true)
            },
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
        return results.outcome(
            try dialect.settle(.startJourney) { () throws(SDKError) in try sdk.startJourney(registration: registration)
            })
    }

    func next(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let (payload, current) = try dialect.answer(
            to: try Arguments.string("next", args, name: "the step payload"), sdk: sdk)
        var node = current
        let rules: CallbackValues.SampleRules
        if flavor == .reactNativeIOS {
            // The original indexes payload callbacks by the node's positions and crashes when
            // there are fewer; AuthBridge rejects a payload that does not match the step instead.
            guard payload.callbacks.count == node.callbacks.count else {
                throw dialect.unreadablePayload(
                    "the step has \(node.callbacks.count) callbacks, the payload has \(payload.callbacks.count)")
            }
            rules = .ios(.reactNative)
        } else {
            rules = .android(.kotlin)
        }
        try CallbackValues.apply(payload, to: &node, handling: callbacks, sample: rules, sdk: sdk, device: device)
        return results.outcome(try dialect.settle(.submit) { () throws(SDKError) in try sdk.submit(node) })
    }

    public func resume(suspendedId: String) throws(BridgeError) -> JSONValue {
        results.outcome(try dialect.settle(.resume) { () throws(SDKError) in try sdk.resume(suspendedId: suspendedId) })
    }

    func getUserInfo(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("getUserInfo", args)
        guard sdk.hasUser else { throw dialect.noUser(.userInfo) }
        return results.userInfo(try dialect.settle(.userInfo) { () throws(SDKError) in try sdk.userInfo() })
    }

    func getAccessToken(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("getAccessToken", args)
        guard sdk.hasUser else { throw dialect.noUser(.accessToken) }
        let token = try dialect.settle(.accessToken) { () throws(SDKError) in try sdk.freshAccessToken() }
        if answeredToken?.token != token { answeredToken = (token, results.accessToken(token)) }
        return .string(answeredToken!.text)
    }
}
