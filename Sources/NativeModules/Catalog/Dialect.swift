import AuthBridgeCore
import NativeSDK

/// How one platform's sample bridge speaks (the sample bridges listed in docs/flavors.md): the text `start` resolves,
/// the rejections for a call made at the wrong time, and how an SDK error becomes a rejection
/// in each operation. Each bridge settles every SDK call through `settle`, instead of a
/// do/catch → reject of its own in every method.
public struct Dialect: Sendable {
    /// The SDK calls a bridge makes; the same SDK error is rejected differently in each.
    public enum Operation: Sendable { case startJourney, submit, resume, userInfo, accessToken }

    public let startResult: String
    /// `next` with no journey in progress.
    public let noJourney: BridgeError
    /// `next` with a payload the bridge cannot decode; the argument says why.
    public let unreadablePayload: @Sendable (_ detail: String) -> BridgeError
    /// `getUserInfo` / `getAccessToken` with nobody logged in.
    public let noUser: @Sendable (Operation) -> BridgeError
    public let rejection: @Sendable (SDKError, Operation) -> BridgeError

    /// Runs one SDK call; its error becomes this platform's rejection for `operation`.
    public func settle<T>(_ operation: Operation, _ call: () throws(SDKError) -> T) throws(BridgeError) -> T {
        do {
            return try call()
        } catch {
            throw rejection(error, operation)
        }
    }

    /// The Android SDK's exception message: for an AM error, AM's body as text
    /// (`AuthenticationException(statusCode, error, body)`), else the SDK's message.
    public static func androidMessage(of error: SDKError) -> String {
        if case .authenticationFailed(let body) = error { return JSONWriter().string(body) }
        return error.message
    }

    static let androidNoUser = "Current user is null. Not logged in or SDK not initialized yet"

    /// RN iOS (RN-E): journeys reject `Error`, user and tokens `error`; a failed submit is
    /// `LoginFailure` with the SDK's text kept for people in `detail`.
    public static let reactNativeIOS = Dialect(
        startResult: "SDK initialized",
        noJourney: .reject("Error", "UnkownError", detail: "no journey in progress: call login() or register() first"),
        unreadablePayload: { .reject("Error", "Failed to parse the JSON received from UI layer", detail: $0) },
        noUser: { operation in
            let what = operation == .accessToken ? "access tokens" : "user info"
            return .reject("error", "Invalid SDK state: No current user for which to request \(what)")
        },
        rejection: { error, operation in
            let message = error.iosMessage
            switch (operation, error) {
            case (.startJourney, _), (.submit, .notStarted): return .reject("Error", message)
            case (.submit, _), (.resume, .authenticationFailed):
                return .reject("Error", "LoginFailure", detail: message)
            case (.resume, _): return .reject("Error", message)
            case (.userInfo, _), (.accessToken, _): return .reject("error", message)
            }
        })

    /// RN Android (Kotlin, RN-D/E): every rejection is `error` with the SDK's exception message.
    public static let reactNativeAndroid = Dialect(
        startResult: "SDK Initialized",
        noJourney: .reject("error", "current node or callbacks are null"),
        unreadablePayload: { .reject("error", "parsing response failed", detail: $0) },
        noUser: { _ in .reject("error", androidNoUser) },
        rejection: { error, _ in .reject("error", androidMessage(of: error)) })

    /// Flutter iOS: FlutterErrors; a journey that cannot start discards the SDK's error.
    public static let flutterIOS = Dialect(
        startResult: "SDK Initialised",
        noJourney: .reject("Error", "UnkownError"),
        unreadablePayload: { .reject("Error", $0) },
        // The Dart future never completes here; AuthBridge rejects instead of hanging.
        noUser: { _ in .reject("Error", "No current user", detail: "the Flutter iOS sample never completes this call")
        },
        rejection: { error, operation in
            switch operation {
            case .startJourney: return .reject("Error", "No node present", detail: error.iosMessage)
            case .submit, .resume: return .reject("LoginFailure", error.iosMessage)
            case .userInfo, .accessToken: return .reject("Error", error.iosMessage)
            }
        })

    /// Flutter Android (Java): as RN Android; the Java bridge crashes on a missing node, where
    /// AuthBridge rejects.
    public static let flutterAndroid = Dialect(
        startResult: "SDK Initialized",
        noJourney: .reject("error", "current node or callbacks are null"),
        unreadablePayload: { .reject("error", "parsing response failed", detail: $0) },
        noUser: { _ in .reject("error", androidNoUser) },
        rejection: { error, _ in .reject("error", androidMessage(of: error)) })
}

extension Dialect {
    /// The ForgeRock guide's iOS bridge (RN-B): `start` at once, every `next` failure to decode
    /// or to find the node `UnknownError`, a failed submit `LoginFailure`.
    public static let guide = Dialect(
        startResult: "SDK is initialized",
        noJourney: .reject("Error", "UnknownError", detail: "no journey in progress: call login() first"),
        unreadablePayload: { .reject("Error", "UnknownError", detail: $0) },
        noUser: { _ in .reject("error", "Invalid SDK state: No current user for which to request user info") },
        rejection: { error, operation in
            let message = error.iosMessage
            switch operation {
            case .startJourney: return .reject("Error", message)
            case .submit, .resume: return .reject("Error", "LoginFailure", detail: message)
            case .userInfo, .accessToken: return .reject("error", message)
            }
        })
}

extension Flavor {
    public var dialect: Dialect {
        switch self {
        case .reactNativeIOS: return .reactNativeIOS
        case .reactNativeAndroid: return .reactNativeAndroid
        case .flutterIOS: return .flutterIOS
        case .flutterAndroid: return .flutterAndroid
        }
    }
}
