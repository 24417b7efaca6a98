import AuthBridgeCore
import EmulatedDevice
import NativeSDK

/// `BindingErrorCodes` (`binding/ios/BindingErrorCodes.swift`, Android twin) and how a failed
/// bind or sign rejects on each platform.
///
/// iOS (`binding/ios/RNPingBindingCommon.swift` `resolveBindingErrorCode`): the callback returns a
/// ping-ios `DeviceBindingStatus` (`Binding/Binding/Errors/DeviceBindingStatus.swift`), which maps
/// to the code; the type is `binding_error` and the message the status's `localizedDescription`.
/// `DeviceBindingStatus` is not a `LocalizedError`, so that is Foundation's generic text with the
/// case's error code (Swift numbers an enum's cases with a payload first: `unsupported` 0, then
/// `timeout` 1, `abort` 2, `clientNotRegistered` 3, `unAuthorize` 4, `invalidCustomClaims` 5;
/// inferred, not observed).
///
/// Android (`binding/android/…/BindingErrorMapper.kt`): the code follows the exception's class
/// (ping-android `mfa/binding/…/authenticator/exception/*`); `rejectWithError` takes the type from
/// rn core's `mapThrowableToGenericError`, `internal_error` for these exceptions; the message is
/// the exception's.
enum BindingErrors {
    static let bindError = "BINDING_BIND_ERROR"
    static let signError = "BINDING_SIGN_ERROR"
    static let cancelled = "BINDING_CANCELLED"
    static let unsupportedDevice = "BINDING_UNSUPPORTED_DEVICE"
    static let notRegistered = "BINDING_NOT_REGISTERED"
    static let callbackNotFound = "BINDING_CALLBACK_NOT_FOUND"
    static let invalidConfig = "BINDING_INVALID_CONFIG"
    static let keyDeleteError = "BINDING_KEY_DELETE_ERROR"
    static let authFailed = "BINDING_AUTH_FAILED"

    /// The rejection of a bind (`signing` false) or sign that failed so.
    static func rejection(
        _ failure: BindingCeremony.Failure, signing: Bool, platform: Platform, request: BindingCeremony.Request
    ) -> BridgeError {
        let fallback = signing ? signError : bindError
        switch platform {
        case .ios:
            let (code, status): (String, Int)
            switch failure {
            case .unsupported: (code, status) = (unsupportedDevice, 0)
            case .timedOut: (code, status) = (cancelled, 1)
            case .cancelled, .keySelectionCancelled, .pinCancelled(.authentication, _): (code, status) = (cancelled, 2)
            case .notRegistered: (code, status) = (notRegistered, 3)
            // ping-ios `AppPinAuthenticator.register` reports a PIN it did not get as
            // `authenticationFailed`, which the callback maps to `unAuthorize`.
            case .pinCancelled(.registration, _), .wrongPin, .authenticationFailed: (code, status) = (authFailed, 4)
            case .reservedClaims: (code, status) = (authFailed, 5)
            case .unsupportedAlgorithm: (code, status) = (fallback, 0)
            }
            return PingRejection.reject(
                code, .binding,
                "The operation couldn’t be completed. (PingBinding.DeviceBindingStatus error \(status).)")
        case .android:
            let (code, message): (String, String)
            switch failure {
            case .unsupported:
                var type = "BIOMETRIC_ONLY"
                if case .bind(let r, _) = request { type = r.authenticationType }
                (code, message) = (unsupportedDevice, "Device does not support \(type)")
            case .timedOut:
                // kotlinx `withTimeout(timeout seconds)` around the prompt: a TimeoutCancellationException,
                // which no rule of the mapper names.
                var seconds = 60
                switch request {
                case .bind(let r, _): seconds = r.timeout
                case .sign(_, _, let timeout, _): seconds = timeout
                }
                (code, message) = (fallback, "Timed out waiting for \(seconds * 1000) ms")
            case .cancelled: (code, message) = (cancelled, "Fingerprint operation canceled by user.")
            case .pinCancelled(.registration, let timedOut):
                // The bridge's `bridgePinCollector` throws a RuntimeException out of `register`.
                (code, message) = (fallback, timedOut ? "PIN collection timed out" : "PIN collection cancelled")
            case .pinCancelled(.authentication, _): (code, message) = (cancelled, "User cancelled the operation")
            case .wrongPin: (code, message) = (authFailed, "Invalid Pin")
            case .authenticationFailed: (code, message) = (authFailed, "Biometric authentication failed")
            case .keySelectionCancelled(let timedOut):
                (code, message) = (fallback, timedOut ? "User key selection timed out" : "User key selection cancelled")
            case .notRegistered: (code, message) = (notRegistered, "No user is registered")
            case .reservedClaims:
                (code, message) = (
                    invalidConfig, "Custom claims contains reserved names: [sub, exp, iat, nbf, iss, challenge]"
                )
            case .unsupportedAlgorithm(let name): (code, message) = (fallback, "Unsupported JWS algorithm \(name)")
            }
            return PingRejection.reject(code, .internalError, message)
        }
    }
}
