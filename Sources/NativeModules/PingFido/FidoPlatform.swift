import AuthBridgeCore
import EmulatedDevice
import NativeSDK

/// How each platform's FIDO stack reports a passkey ceremony that did not complete: the
/// `webAuthnOutcome` the journey callback writes (ping-ios `Fido/Journey/FidoCallback.swift`
/// `handleError`, ping-android `mfa/fido/…/journey/FidoCallback.kt` `handleError`) and the
/// rejection RNPingFido gives (`fido/ios/RNPingFidoCommon.swift`, `fido/android/…/RNPingFidoCommon.kt`).
///
/// iOS: AuthenticationServices reports a dismissed sheet as `ASAuthorizationError.canceled`
/// (1001), and a sign-in with no passkey on the phone leaves the user only the sheet's cancel;
/// the module rejects with `error.localizedDescription`, the generic NSError text, as
/// `fido_error`. Android: Credential Manager's cancellation, no-credential, DOM and unsupported
/// exceptions; `rejectWithError` maps the throwable with `mapThrowableToGenericError`, so the
/// type is `internal_error`. The exceptions' texts are Credential Manager's, inferred.
struct FidoFailure: Equatable {
    /// What the journey callback writes into `webAuthnOutcome`.
    var outcome: String
    /// The rejection's message (the native error's text).
    var message: String
    /// iOS's and Android's `isRecoverableFidoAuthenticationFailure`: an authentication with
    /// this failure rejects `FIDO_AUTHENTICATE_CANCELLED`.
    var recoverable: Bool

    static func of(_ failure: PasskeyAuthenticator.Failure, platform: Platform, registering: Bool) -> FidoFailure {
        switch platform {
        case .ios: ios(failure)
        case .android: android(failure, registering: registering)
        }
    }

    private static func nsError(_ domain: String, _ code: Int) -> String {
        "The operation couldn\u{2019}t be completed. (\(domain) error \(code).)"
    }

    private static let authorization = "com.apple.AuthenticationServices.AuthorizationError"

    private static func ios(_ failure: PasskeyAuthenticator.Failure) -> FidoFailure {
        switch failure {
        case .cancelled, .notAllowed:
            FidoFailure(
                outcome: "ERROR::NotAllowedError:The operation was canceled.", message: nsError(authorization, 1001),
                recoverable: true)
        case .timedOut:
            // `Fido`'s own timer: FidoError.timeout (code 6), whose text is not a
            // LocalizedError's, so the module's `localizedDescription` is NSError's.
            FidoFailure(
                outcome: "ERROR::TimeoutError:Operation timedout", message: nsError("PingFido.FidoError", 6),
                recoverable: false)
        case .invalidState:
            // `matchedExcludedCredential` (1006) falls to handleError's default branch.
            FidoFailure(
                outcome: "ERROR::UnknownError:\(nsError(authorization, 1006))", message: nsError(authorization, 1006),
                recoverable: false)
        case .notSupported:
            FidoFailure(
                outcome: "ERROR::NotSupportedError:\(nsError(authorization, 1003))",
                message: nsError(authorization, 1003), recoverable: false)
        case .data:
            // FidoError.invalidChallenge, not an ASAuthorizationError. Swift numbers an enum's
            // cases with payloads first, so it is code 2 (and timeout 6).
            FidoFailure(
                outcome: "ERROR::UnknownError:\(nsError("PingFido.FidoError", 2))",
                message: nsError("PingFido.FidoError", 2), recoverable: false)
        }
    }

    private static func android(_ failure: PasskeyAuthenticator.Failure, registering: Bool) -> FidoFailure {
        switch failure {
        case .cancelled, .timedOut:
            // Create/GetCredentialCancellationException → NotAllowedError with its message.
            let text = "activity is cancelled by the user."
            return FidoFailure(outcome: "ERROR::NotAllowedError:\(text)", message: text, recoverable: true)
        case .notAllowed:
            // NoCredentialException is neither a cancellation nor a DOM exception: UnknownError.
            let text = "No credentials available"
            return FidoFailure(outcome: "ERROR::UnknownError:\(text)", message: text, recoverable: true)
        case .invalidState:
            let text = "One of the excluded credentials exists on the local device"
            return FidoFailure(outcome: "ERROR::InvalidStateError:\(text)", message: text, recoverable: false)
        case .notSupported:
            let text =
                registering
                ? "Create credential is not supported on this device" : "Get credential is not supported on this device"
            return FidoFailure(outcome: "unsupported", message: text, recoverable: false)
        case .data(let what):
            return FidoFailure(outcome: "ERROR::UnknownError:\(what)", message: what, recoverable: false)
        }
    }

    /// The rejection type: iOS's `GenericError(type: .fidoError)`; Android's throwable mapped
    /// by `mapThrowableToGenericError` (not an IllegalArgumentException or IOException).
    static func kind(_ platform: Platform) -> PingRejection.Kind { platform == .ios ? .fido : .internalError }
}

/// The value the journey callback writes on success: the `::`-joined legacy data, or, when AM's
/// metadata says `supportsJsonResponse`, `{authenticatorAttachment, legacyData}` as JSON (iOS
/// `JSONSerialization`, which escapes `/`; Android's kotlinx `FidoJsonResponse`).
enum FidoOutcome {
    static func value(_ legacy: String, supportsJson: Bool, platform: Platform) -> String {
        guard supportsJson else { return legacy }
        let json = JSONWriter.compact(["authenticatorAttachment": "platform", "legacyData": .string(legacy)])
        return platform == .ios ? json.replacingSlashes() : json
    }
}

extension String {
    /// `JSONSerialization` writes `/` as `\/`.
    fileprivate func replacingSlashes() -> String {
        var out = ""
        out.reserveCapacity(utf8.count + 16)
        for character in self {
            if character == "/" { out += "\\/" } else { out.append(character) }
        }
        return out
    }
}
