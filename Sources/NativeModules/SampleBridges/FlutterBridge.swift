import AuthBridgeCore
import NativeSDK

/// The Flutter sample's `MethodChannel('forgerock.com/SampleBridge')` (FL-A/FL-B in docs/flavors.md): every
/// result is a String, errors are FlutterErrors (code, message). Method names are the channel's:
/// iOS starts with `frAuthStart`, Android with `start`; `getAccessToken` is on neither.
public final class FlutterBridge: JourneyModule {
    public let name = "forgerock.com/SampleBridge"
    private let sdk: AuthSDK
    private let flavor: Flavor
    private let dialect: Dialect
    private let callbacks: CallbackHandling
    /// The app's hands on the emulated phone, for `--callbacks complete`.
    private let device: DeviceAnswers?

    /// `flavor` is `.flutterIOS` or `.flutterAndroid`.
    public init(sdk: AuthSDK, flavor: Flavor, callbacks: CallbackHandling = .sample, device: DeviceAnswers? = nil) {
        precondition(
            flavor == .flutterIOS || flavor == .flutterAndroid, "a Flutter bridge is flutter-ios or flutter-android")
        self.sdk = sdk
        self.flavor = flavor
        self.dialect = flavor.dialect
        self.callbacks = callbacks
        self.device = device
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod(flavor.startMethod) { args throws(BridgeError) in try self.start(args) },
            NativeMethod("login") { args throws(BridgeError) in try self.journey(args, registration: false) },
            NativeMethod("register") { args throws(BridgeError) in try self.journey(args, registration: true) },
            NativeMethod("next") { args throws(BridgeError) in try self.next(args) },
            NativeMethod("getUserInfo") { args throws(BridgeError) in try self.getUserInfo(args) },
            NativeMethod("logout") { args throws(BridgeError) in
                try Self.noArgument(args)
                self.sdk.logout()
                return "User logged out"
            },
            NativeMethod("callEndpoint") { args throws(BridgeError) in try self.callEndpoint(args) },
        ]
    }

    /// `invokeMethod(name)` sends no argument (or null).
    static func noArgument(_ args: [JSONValue]) throws(BridgeError) {
        guard args.isEmpty || args == [.null] else { throw argumentsNotParsed }
    }

    static let argumentsNotParsed = BridgeError.reject("500", "Arguments not parsed correctly")

    /// Both samples log out whoever was logged in right after starting.
    func start(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Self.noArgument(args)
        sdk.start()
        sdk.logout()
        return .string(dialect.startResult)
    }

    func journey(_ args: [JSONValue], registration: Bool) throws(BridgeError) -> JSONValue {
        try Self.noArgument(args)
        return .string(
            resolve(
                try dialect.settle(.startJourney) { () throws(SDKError) in
                    try sdk.startJourney(registration: registration)
                }))
    }

    func next(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        guard args.count == 1, case .string(let text) = args[0] else { throw Self.argumentsNotParsed }
        let (payload, current) = try dialect.answer(to: text, sdk: sdk)
        var node = current
        let rules: CallbackValues.SampleRules = flavor == .flutterIOS ? .ios(.flutter) : .android(.java)
        try CallbackValues.apply(payload, to: &node, handling: callbacks, sample: rules, sdk: sdk, device: device)
        return .string(resolve(try dialect.settle(.submit) { () throws(SDKError) in try sdk.submit(node) }))
    }

    public func resume(suspendedId: String) throws(BridgeError) -> JSONValue {
        .string(
            resolve(try dialect.settle(.resume) { () throws(SDKError) in try sdk.resume(suspendedId: suspendedId) }))
    }

    func getUserInfo(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Self.noArgument(args)
        guard sdk.hasUser else { throw dialect.noUser(.userInfo) }
        // JSONSerialization (iOS) and org.json (Android) both write `/` as `\/`.
        return .string(
            StepJSON.apple.string(try dialect.settle(.userInfo) { () throws(SDKError) in try sdk.userInfo() }))
    }

    /// The samples' todo API call. AuthBridge carries no resource server, so it answers with
    /// the sample's own transport-error shape, saying why.
    func callEndpoint(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        guard args.count == 1, case .array(let parts) = args[0], parts.count == 3,
            parts.allSatisfy({ $0.stringValue != nil })
        else { throw Self.argumentsNotParsed }
        let reason = "callEndpoint is not emulated: AuthBridge has no resource server to call"
        throw flavor == .flutterIOS ? .reject("API Error", reason) : .reject("error", "Request Failed", detail: reason)
    }

    private func resolve(_ outcome: AuthSDK.JourneyOutcome) -> String {
        switch (outcome, flavor.platform) {
        case (.step(let node), .ios):
            return StepJSON.ios(node)
        case (.step(let node), .android):
            return StepJSON.android(node, variant: .java)
        case (.success(let token), .ios):
            let pretty = StepJSON.applePretty.string(token.iosJSON)
            return StepJSON.apple.string(["type": "LoginSuccess", "sessionToken": .string(pretty)])
        case (.success(let token), .android):
            // Gson of a HashMap: its iteration order, which for these two keys is this one.
            let tokenJSON = StepJSON.gson.string(token.androidJSON(realm: sdk.options.realm))
            return StepJSON.gson.string(["sessionToken": .string(tokenJSON), "type": "LoginSuccess"])
        }
    }
}
