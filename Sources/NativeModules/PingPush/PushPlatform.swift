import AuthBridgeCore
import EmulatedDevice
import NativeSDK

/// How `RNPingPush` differs per platform, as data: what the push service hands the app, what the
/// registration reports, how each failure rejects (ping-ios `PushError` through
/// `push/ios/PushErrorMapper.swift`; ping-android's exceptions through
/// `push/android/…/PushErrorMapper.kt`, where everything but a few named exceptions is an
/// `MfaException` with a fixed text and reads `network_failure`).
struct PushPlatform {
    let platform: Platform

    /// The `deviceType`/`communicationType` the SDK registers with (ping-ios
    /// `PingAMPushResponder` `ios`/`apns`, ping-android `PushConstants` `android`/`gcm`).
    var deviceKind: PushDeviceKind {
        platform == .ios
            ? PushDeviceKind(deviceType: "ios", communicationType: "apns")
            : PushDeviceKind(deviceType: "android", communicationType: "gcm")
    }

    /// The message data the push service delivers and the bridge forwards as
    /// `com.pingidentity.rnpush.PushMessageReceived`: APNs' `userInfo`, whose `aps` holds the
    /// JWT as `data` and the message id (ping-ios `PushClient.processNotification(userInfo:)`),
    /// or FCM's data map `{messageId, message}` (ping-android `PingAMPushHandler.canHandle`).
    func messageData(messageId: String, jwt: String, text: String) -> JSONValue {
        switch platform {
        case .ios: ["aps": ["alert": .string(text), "data": .string(jwt), "messageId": .string(messageId)]]
        case .android: ["messageId": .string(messageId), "message": .string(jwt)]
        }
    }

    /// Android's bridge reads FCM's token on `refreshToken`; iOS's has none to fetch (APNs hands
    /// it to the AppDelegate) and answers `{token: null}` (`push/ios/RNPingPushCommon.swift`).
    var fetchesToken: Bool { platform == .android }

    /// ping-android refuses a second credential for the same issuer and account
    /// (`PushService.addCredentialFromUri`, `DuplicateCredentialException`); ping-ios has no such check.
    var refusesDuplicates: Bool { platform == .android }

    /// ping-android checks expiry before it answers (`NotificationExpiredException`); ping-ios
    /// sends the answer and AM refuses it.
    var checksExpiry: Bool { platform == .android }

    /// A plain approval of a number challenge: ping-ios rejects (`PingAMPushHandler.sendApproval`),
    /// ping-android's handler answers false and nothing is sent.
    var rejectsChallengeWithoutNumber: Bool { platform == .ios }

    func reject(_ failure: PushFailure) -> BridgeError {
        let (code, kind, message) = describe(failure)
        return PingRejection.reject(code, kind, message)
    }

    private func describe(_ failure: PushFailure) -> (String, PingRejection.Kind, String) {
        let ios = platform == .ios
        switch failure {
        case .clientNotFound(let id): return ("not_initialized", .state, "Push client not found for id: \(id)")
        case .storageNotFound(let id):
            return (
                "storage_failure", .internalError, "Storage failure: No push storage config registered for id=\(id)"
            )
        case .invalidURI(let detail):
            return ios
                ? ("invalid_uri", .argument, "Invalid Push URI: \(detail)")
                : Self.androidWrapped("add credential from URI")
        case .tokenNotSet:
            return (
                "device_token_not_set", .state,
                ios
                    ? "Device token has not been set"
                    : "Device token not set. Call setDeviceToken() before registering credentials."
            )
        case .duplicate(let issuer, let account):
            return (
                "duplicate_credential", .state,
                "Credential already exists for issuer '\(issuer)' and account '\(account)'"
            )
        case .refused(let what, let status, let body):
            guard ios else {
                return Self.androidWrapped(
                    what == .registration ? "add credential from URI" : "\(what.rawValue) notification")
            }
            let label = what == .registration ? "Registration failed" : "Authentication response failed"
            return ("network_failure", .network, "Network failure: \(label) with status code \(status): \(body)")
        case .unreachable(let what, let detail):
            guard ios else {
                return Self.androidWrapped(
                    what == .registration ? "add credential from URI" : "\(what.rawValue) notification")
            }
            return ("network_failure", .network, "Network failure: \(detail)")
        case .notificationNotFound(let id): return ("notification_not_found", .state, "Notification not found: \(id)")
        case .expired(let id, let ttl):
            return ("notification_not_found", .state, "Notification '\(id)' has expired (TTL: \(ttl)s)")
        case .credentialNotFound(let id): return ("credential_not_found", .state, "Credential not found: \(id)")
        case .emptyValue(let what):
            return ("invalid_parameter_value", .argument, "Invalid parameter value: \(what) cannot be empty")
        case .challengeRequired:
            return (
                "invalid_parameter_value", .argument,
                "Invalid parameter value: Challenge response is required for challenge notifications"
            )
        }
    }

    /// `PushService`'s catch-all on Android: `MfaException("Failed to …")`, read as `network_failure`.
    private static func androidWrapped(_ action: String) -> (String, PingRejection.Kind, String) {
        ("network_failure", .network, "Failed to \(action)")
    }
}

/// Why a push call failed, before the platform words it.
enum PushFailure: Error {
    enum Call: String {
        case registration = "register", approval = "approve", denial = "deny"
    }
    case clientNotFound(String)
    case storageNotFound(String)
    case invalidURI(String)
    case tokenNotSet
    case duplicate(issuer: String, account: String)
    case refused(Call, status: Int, body: String)
    case unreachable(Call, String)
    case notificationNotFound(String)
    case expired(String, ttl: Int)
    case credentialNotFound(String)
    /// An empty challenge response, authentication method or device token (ping-ios `PushClient`).
    case emptyValue(String)
    case challengeRequired
}
