import AuthBridgeCore
import EmulatedDevice
import NativeSDK

/// Where `RNPingOath` differs by platform, as data: how each rejects (the RN module's error
/// mappers `oath/ios/OathErrorMapper.swift` and `oath/android/…/OathErrorMapper.kt` over the
/// native SDKs' errors), what each URI parser accepts beyond the shared one, and how each
/// writes a credential's optional fields.
struct OathPlatformRules {
    let platform: Platform
    private var ios: Bool { platform == .ios }

    /// A handle `create` never answered or `close` removed.
    func unknownHandle(_ handle: String) -> BridgeError {
        PingRejection.reject(
            "OATH_STATE_ERROR", .state,
            ios
                ? "OATH client handle not found. The client may have been closed."
                : "No OATH client found for handle \(handle)")
    }

    /// `generateCode…` for an id the store does not hold: iOS `OathError.credentialNotFound(id)`;
    /// Android's service wraps it in a plain `MfaException`, which its mapper calls unknown.
    func codeForUnknownCredential(_ id: String) -> BridgeError {
        ios
            ? PingRejection.reject("OATH_CREDENTIAL_NOT_FOUND", .state, id)
            : PingRejection.reject(
                "OATH_UNKNOWN_ERROR", .unknown, "Failed to generate code for credential with ID \(id)")
    }

    /// `saveCredential` for an id the store does not hold.
    func saveOfUnknownCredential(_ id: String) -> BridgeError {
        PingRejection.reject("OATH_CREDENTIAL_NOT_FOUND", .state, ios ? id : "Credential not found: \(id)")
    }

    /// `saveCredential` without `issuer`/`accountName`: iOS rejects with the bare code (no
    /// userInfo), Android's `requireNotNull` is an IllegalArgumentException the mapper calls a parameter error.
    func missingField(_ field: String) -> BridgeError {
        ios
            ? .rejection(code: "OATH_MISSING_PARAMETER", message: "Missing required field: \(field)", detail: nil)
            : PingRejection.reject("OATH_INVALID_PARAMETER", .argument, "credential.\(field) is required")
    }

    /// A locked credential asked for a code: iOS `OathError.credentialLocked(id)`, Android
    /// `CredentialLockedException(policy, "Credential is currently locked")`.
    func locked(id: String, policy: String?) -> BridgeError {
        PingRejection.reject(
            "OATH_CREDENTIAL_LOCKED", .state,
            ios ? id : "Credential is locked due to policy '\(policy ?? "unknown")': Credential is currently locked")
    }

    /// Registration refused by a policy (`OathService.parseUri` on both).
    func policyViolation(_ policy: String) -> BridgeError {
        PingRejection.reject(
            "OATH_POLICY_VIOLATION", .state,
            "This credential cannot be registered on this device. It violates the following policy: \(policy)")
    }

    /// Android's `DuplicateCredentialException` (its store is unique on issuer and account; iOS
    /// keys the keychain by the new id and keeps both).
    func duplicate(_ credential: OathCredential) -> BridgeError? {
        ios
            ? nil
            : PingRejection.reject(
                "OATH_DUPLICATE_CREDENTIAL", .state,
                "Credential already exists for issuer '\(credential.issuer)' and account '\(credential.accountName)'")
    }

    /// An unresolvable `storageId`/`policyEvaluatorId` in `create` (same text on both).
    func unresolvable(_ name: String, _ id: String) -> BridgeError {
        PingRejection.reject("OATH_INITIALIZATION_FAILED", .argument, "Unresolvable \(name): \(id)")
    }

    /// What the platform's parser refuses that the shared one accepts: iOS `validate()` and
    /// `parseIntParameter` (period 1…300, a non-empty issuer).
    func extraCheck(_ credential: OathCredential) -> BridgeError? {
        guard ios else { return nil }
        if credential.kind == .totp, credential.period > 300 {
            return PingRejection.reject(
                "OATH_INVALID_PARAMETER", .argument,
                "Invalid period value: \(credential.period). Must be between 1 and 300")
        }
        if credential.issuer.isEmpty {
            return PingRejection.reject("OATH_INVALID_PARAMETER", .argument, "Issuer cannot be empty")
        }
        return nil
    }

    /// A URI the shared parser refuses, as the platform's parser and error mapper reject it.
    /// Android's mapper picks OATH_INVALID_URI only when the exception's message mentions "uri".
    func uriError(_ error: OathCredential.URIError, uri: String) -> BridgeError {
        let (iosCase, androidMessage) = texts(error, uri: uri)
        if ios { return PingRejection.reject(iosCase.code, iosCase.kind, iosCase.message) }
        let code = androidMessage.lowercased().contains("uri") ? "OATH_INVALID_URI" : "OATH_INVALID_PARAMETER"
        return PingRejection.reject(code, .argument, androidMessage)
    }

    private func texts(
        _ error: OathCredential.URIError, uri: String
    ) -> ((code: String, kind: PingRejection.Kind, message: String), String) {
        let scheme = uri.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let invalidURI = "OATH_INVALID_URI"
        let invalidParameter = "OATH_INVALID_PARAMETER"
        switch error {
        case .notOtpauth:
            return (
                (invalidURI, .argument, "Unsupported URI scheme: \(scheme.isEmpty ? "none" : scheme)"),
                "Invalid URI scheme: \(scheme.lowercased()), expected: otpauth or mfauth"
            )
        case .unknownType(let type):
            return (
                (invalidURI, .argument, "Unknown OATH type: \(type)"),
                "Invalid OATH type: \(type.lowercased()), expected: totp or hotp"
            )
        case .missingAccountName:
            return ((invalidURI, .argument, "Missing label in URI"), "Invalid URI: missing account name")
        case .badEscape, .badParameter:
            return ((invalidURI, .argument, "Invalid URI format"), "Failed to parse URI")
        case .missingSecret:
            return (
                ("OATH_MISSING_PARAMETER", .argument, "Missing or empty secret parameter"),
                "Missing required parameter: secret"
            )
        case .badSecret:
            return ((invalidParameter, .argument, "Invalid secret key: not base32"), "Invalid secret: not base32")
        case .issuerMismatch(let label, let parameter):
            return (
                ("OATH_UNKNOWN_ERROR", .unknown, "Issuer mismatch: \(parameter) does not match \(label)"),
                "Issuer parameter (\(parameter)) doesn't match label issuer (\(label))"
            )
        case .badValue(let parameter, let value):
            let iosRanges = ["digits": "4 and 8", "period": "1 and 300", "counter": "0 and \(Int.max)"]
            let androidRules = [
                "digits": "Digits must be 6 or 8.", "period": "Period must be greater than 0.",
                "counter": "Counter must be non-negative.",
            ]
            guard let range = iosRanges[parameter], let rule = androidRules[parameter] else {
                return ((invalidParameter, .argument, "Invalid algorithm: \(value)"), "Invalid algorithm: \(value)")
            }
            return (
                (invalidParameter, .argument, "Invalid \(parameter) value: \(value). Must be between \(range)"),
                "Invalid \(parameter) value: \(value). \(rule)"
            )
        }
    }

    /// The credential as the bridge encodes it (`encodeCredential` in `RNPingOathCommon.swift`/`.kt`):
    /// the same keys on both; no secret. `b` keeps no `#` on iOS and gets one on Android; Android's
    /// parser keeps absent policies as "".
    func json(_ credential: OathCredential, _ app: OathAppRecord) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let color = app.backgroundColor.map { ios || $0.isEmpty ? $0 : "#\($0)" }
        let policies = ios ? app.policies : (app.policies ?? "")
        return [
            "id": .string(app.id), "issuer": .string(credential.issuer), "displayIssuer": .string(app.displayIssuer),
            "accountName": .string(credential.accountName), "displayAccountName": .string(app.displayAccountName),
            "type": .string(credential.kind.rawValue.uppercased()), "userId": text(app.userId),
            "resourceId": text(app.resourceId), "digits": .int(Int64(credential.digits.rawValue)),
            "period": .int(Int64(credential.period)), "counter": .int(Int64(clamping: credential.counter)),
            "imageURL": text(app.imageURL), "backgroundColor": text(color), "isLocked": .bool(app.isLocked),
            "algorithm": .string(credential.algorithm.rawValue), "createdAt": .int(Int64(app.createdAt)),
            "policies": text(policies), "lockingPolicy": text(app.lockingPolicy),
        ]
    }

    /// The counter of the HOTP code `generateCode` shows, and the one stored after it: iOS shows
    /// the code at the stored counter (`OathAlgorithmHelper.swift`), Android at the counter plus
    /// one (`OathAlgorithmHelper.kt`); both store and report the counter plus one.
    func hotpCodeCounter(stored: UInt64) -> UInt64 { ios ? stored : stored &+ 1 }
}
