import AuthBridgeCore
import NativeSDK

/// The iOS bridge the ForgeRock guide "build a protected app with React Native" teaches (variant
/// RN-B in docs/flavors.md): `start` resolves at once, `next` copies only SingleValueCallbacks and
/// only as strings, a success carries `accessInfo` (the guide's JS does
/// `JSON.parse(response.accessInfo)`), `logout` is a void method. Its `.m` declares `register`
/// and `getAccessToken` but its Swift implements neither: on a device the call crashes the app;
/// here it answers an error that says so.
public final class GuideBridge: JourneyModule {
    public let name = "FRAuthSampleBridge"
    private let sdk: AuthSDK
    private let dialect = Dialect.guide

    public init(sdk: AuthSDK) {
        self.sdk = sdk
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("start") { args throws(BridgeError) in
                try Arguments.none("start", args)
                self.sdk.start()
                return .string(self.dialect.startResult)
            },
            NativeMethod("login") { args throws(BridgeError) in
                try Arguments.none("login", args)
                return try self.outcome(.startJourney) { () throws(SDKError) in
                    try self.sdk.startJourney(registration: false)
                }
            },
            NativeMethod("register") { _ throws(BridgeError) in throw Self.notImplemented("register") },
            NativeMethod("next") { args throws(BridgeError) in try self.next(args) },
            NativeMethod("getUserInfo") { args throws(BridgeError) in
                try Arguments.none("getUserInfo", args)
                guard self.sdk.hasUser else { throw self.dialect.noUser(.userInfo) }
                return try self.dialect.settle(.userInfo) { () throws(SDKError) in try self.sdk.userInfo() }
            },
            NativeMethod("getAccessToken") { _ throws(BridgeError) in throw Self.notImplemented("getAccessToken") },
            NativeMethod("logout") { args throws(BridgeError) in
                try Arguments.none("logout", args)
                self.sdk.logout()
                return .null
            },
        ]
    }

    static func notImplemented(_ method: String) -> BridgeError {
        .notImplemented(
            "\(method) is declared in the guide's FRAuthSampleBridge.m but its Swift does not implement it "
                + "(on a device the call crashes the app); start with --bridge sample for the sample app's bridge, which has it"
        )
    }

    /// The guide's `next`: the payload decoded with its `Response` struct, then each
    /// SingleValueCallback set from the payload callback at the same position, as a String.
    func next(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let (payload, current) = try dialect.answer(
            to: try Arguments.string("next", args, name: "the step payload"), sdk: sdk)
        var node = current
        for index in node.callbacks.indices where index < payload.callbacks.count {
            guard let type = node.callbackType(at: index), CallbackValues.singleValueTypes.contains(type),
                let value = payload.callbacks[index].inputs.first?.value
            else { continue }
            // `setValue(value.value as! String)`: anything else crashes the original.
            guard case .string = value else {
                throw .reject(
                    "Error", "UnknownError",
                    detail:
                        "callback \(index): the guide's bridge sets values as strings only (`as! String`), got \(value.typeName)"
                )
            }
            node.setInput(callback: index, inputIndex: 0, to: value)
        }
        return try outcome(.submit) { () throws(SDKError) in try sdk.submit(node) }
    }

    public func resume(suspendedId: String) throws(BridgeError) -> JSONValue {
        try outcome(.resume) { () throws(SDKError) in try sdk.resume(suspendedId: suspendedId) }
    }

    /// A step is the iOS step string; a success `{type, accessInfo}` with the pretty-printed token.
    private func outcome(
        _ operation: Dialect.Operation, _ call: () throws(SDKError) -> AuthSDK.JourneyOutcome
    ) throws(BridgeError) -> JSONValue {
        switch try dialect.settle(operation, call) {
        case .step(let node): return .string(StepJSON.ios(node))
        case .success(let token):
            return ["type": "LoginSuccess", "accessInfo": .string(StepJSON.applePretty.string(token.iosJSON))]
        }
    }
}
