import AuthBridgeCore

/// The Flutter sample's `MethodChannel('forgerock.com/SampleBridge')` (bridge-api.md §5): every
/// result is a String, errors are FlutterErrors (code, message). Method names are the channel's:
/// iOS starts with `frAuthStart`, Android with `start`; `getAccessToken` is on neither.
public final class FlutterBridge {
    public enum Platform: Sendable { case ios, android }

    private let sdk: AuthSDK
    private let platform: Platform

    private let callbacks: CallbackHandling

    public init(sdk: AuthSDK, platform: Platform, callbacks: CallbackHandling = .sample) {
        self.sdk = sdk
        self.platform = platform
        self.callbacks = callbacks
    }

    public var methods: [BridgeMethod] {
        [
            BridgeMethod(name: platform == .ios ? "frAuthStart" : "start") { args throws(BridgeError) in try self.start(args) },
            BridgeMethod(name: "login") { args throws(BridgeError) in try self.journey(args, registration: false) },
            BridgeMethod(name: "register") { args throws(BridgeError) in try self.journey(args, registration: true) },
            BridgeMethod(name: "next") { args throws(BridgeError) in try self.next(args) },
            BridgeMethod(name: "getUserInfo") { args throws(BridgeError) in try self.getUserInfo(args) },
            BridgeMethod(name: "logout") { args throws(BridgeError) in
                try Self.noArgument(args)
                self.sdk.logout()
                return "User logged out"
            },
            BridgeMethod(name: "callEndpoint") { args throws(BridgeError) in try self.callEndpoint(args) },
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
        return platform == .ios ? "SDK Initialised" : "SDK Initialized"
    }

    func journey(_ args: [JSONValue], registration: Bool) throws(BridgeError) -> JSONValue {
        try Self.noArgument(args)
        do {
            return .string(resolve(try sdk.startJourney(registration: registration)))
        } catch {
            // iOS discards the SDK's error; Android passes its message (AM's body) on.
            switch platform {
            case .ios: throw .reject("Error", "No node present", detail: error.message)
            case .android: throw .reject("error", ReactNativeAndroidBridge.message(of: error))
            }
        }
    }

    func next(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        guard args.count == 1, case .string(let text) = args[0] else { throw Self.argumentsNotParsed }
        let payload: StepPayload
        do {
            payload = try StepPayload.decode(text)
        } catch {
            throw platform == .ios ? .reject("Error", error.detail) : .reject("error", "parsing response failed", detail: error.detail)
        }
        guard var node = sdk.currentNode else {
            // Android's Java bridge dereferences the missing node and crashes; AuthBridge rejects.
            throw platform == .ios ? .reject("Error", "UnkownError") : .reject("error", "current node or callbacks are null")
        }
        try CallbackValues.apply(payload, to: &node, handling: callbacks, sample: platform == .ios ? .ios(.flutter) : .android(.java), sdk: sdk)
        return try settle { () throws(SDKError) in try sdk.submit(node) }
    }

    /// The app opened a suspended journey's link: settles as `next` would.
    public func resume(suspendedId: String) throws(BridgeError) -> JSONValue {
        try settle { () throws(SDKError) in try sdk.resume(suspendedId: suspendedId) }
    }

    private func settle(_ step: () throws(SDKError) -> AuthSDK.JourneyOutcome) throws(BridgeError) -> JSONValue {
        do {
            return .string(resolve(try step()))
        } catch {
            switch platform {
            case .ios: throw .reject("LoginFailure", error.message)
            case .android: throw .reject("error", ReactNativeAndroidBridge.message(of: error))
            }
        }
    }

    func getUserInfo(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Self.noArgument(args)
        guard sdk.hasUser else {
            // Flutter iOS never answers here (the Dart future hangs); AuthBridge rejects.
            switch platform {
            case .ios: throw .reject("Error", "No current user", detail: "the Flutter iOS sample never completes this call")
            case .android: throw .reject("error", ReactNativeAndroidBridge.noUser)
            }
        }
        do {
            // JSONSerialization (iOS) and org.json (Android) both write `/` as `\/`.
            return .string(StepJSON.apple.string(try sdk.userInfo()))
        } catch {
            throw platform == .ios ? .reject("Error", error.message) : .reject("error", ReactNativeAndroidBridge.message(of: error))
        }
    }

    /// The samples' todo API call. AuthBridge carries no resource server, so it answers with
    /// the sample's own transport-error shape, saying why.
    func callEndpoint(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        guard args.count == 1, case .array(let parts) = args[0], parts.count == 3,
            parts.allSatisfy({ $0.stringValue != nil })
        else { throw Self.argumentsNotParsed }
        let reason = "callEndpoint is not emulated: AuthBridge has no resource server to call"
        throw platform == .ios ? .reject("API Error", reason) : .reject("error", "Request Failed", detail: reason)
    }

    private func resolve(_ outcome: AuthSDK.JourneyOutcome) -> String {
        switch (outcome, platform) {
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
