import AuthBridgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `FRAuthSampleBridge` as React Native sees it on iOS (bridge-api.md §2, variant RN-E):
/// a step is a compact JSON *string*, success an *object* with pretty-printed tokens, user info an
/// object, rejections coded `Error` (journeys) or `error` (user and tokens).
public final class ReactNativeIOSBridge {
    private let sdk: AuthSDK
    /// The real `start()` resolves after a 2 s `asyncAfter`; 0 by default, settable to emulate it.
    private let startDelay: Double
    private let callbacks: CallbackHandling

    public init(sdk: AuthSDK, startDelay: Double = 0, callbacks: CallbackHandling = .sample) {
        self.sdk = sdk
        self.startDelay = startDelay
        self.callbacks = callbacks
    }

    public var methods: [BridgeMethod] {
        [
            BridgeMethod(name: "start") { args throws(BridgeError) in try self.start(args) },
            BridgeMethod(name: "login") { args throws(BridgeError) in try self.journey(args, method: "login", registration: false) },
            BridgeMethod(name: "register") { args throws(BridgeError) in try self.journey(args, method: "register", registration: true) },
            BridgeMethod(name: "next") { args throws(BridgeError) in try self.next(args) },
            BridgeMethod(name: "getUserInfo") { args throws(BridgeError) in try self.getUserInfo(args) },
            BridgeMethod(name: "getAccessToken") { args throws(BridgeError) in try self.getAccessToken(args) },
            BridgeMethod(name: "logout") { args throws(BridgeError) in try self.logout(args) },
        ]
    }

    func start(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("start", args)
        if startDelay > 0 { usleep(UInt32(min(startDelay, 60) * 1_000_000)) }
        sdk.start()
        return "SDK initialized"
    }

    func journey(_ args: [JSONValue], method: String, registration: Bool) throws(BridgeError) -> JSONValue {
        try Arguments.none(method, args)
        do {
            return resolve(try sdk.startJourney(registration: registration))
        } catch {
            throw .reject("Error", error.message)
        }
    }

    func next(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let text = try Arguments.string("next", args, name: "the step payload")
        let parseFailure = "Failed to parse the JSON received from UI layer"
        let payload: StepPayload
        do {
            payload = try StepPayload.decode(text)
        } catch {
            throw .reject("Error", parseFailure, detail: error.detail)
        }
        guard var node = sdk.currentNode else { throw .reject("Error", "UnkownError", detail: "no journey in progress: call login() or register() first") }
        // The original indexes payload callbacks by the node's positions and crashes when there
        // are fewer; AuthBridge rejects a payload that does not match the step instead.
        guard payload.callbacks.count == node.callbacks.count else {
            throw .reject("Error", parseFailure, detail: "the step has \(node.callbacks.count) callbacks, the payload has \(payload.callbacks.count)")
        }
        try CallbackValues.apply(payload, to: &node, handling: callbacks, sample: .ios(.reactNative), sdk: sdk)
        do {
            return resolve(try sdk.submit(node))
        } catch {
            if case .notStarted = error { throw .reject("Error", error.message) }
            throw .reject("Error", "LoginFailure", detail: error.message)
        }
    }

    /// The app opened a suspended journey's link: settles as `next` would.
    public func resume(suspendedId: String) throws(BridgeError) -> JSONValue {
        do {
            return resolve(try sdk.resume(suspendedId: suspendedId))
        } catch {
            if case .authenticationFailed = error { throw .reject("Error", "LoginFailure", detail: error.message) }
            throw .reject("Error", error.message)
        }
    }

    func getUserInfo(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("getUserInfo", args)
        guard sdk.hasUser else { throw .reject("error", "Invalid SDK state: No current user for which to request user info") }
        do {
            return try sdk.userInfo()
        } catch {
            throw .reject("error", error.message)
        }
    }

    func getAccessToken(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("getAccessToken", args)
        guard sdk.hasUser else { throw .reject("error", "Invalid SDK state: No current user for which to request access tokens") }
        do {
            return .string(StepJSON.apple.string(try sdk.freshAccessToken().iosJSON))
        } catch {
            throw .reject("error", error.message)
        }
    }

    func logout(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("logout", args)
        sdk.logout()
        return .null
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
