/// The journey module's rejection codes (`journey/ios/Error/JourneyErrorCodes.swift`,
/// `journey/android/…/error/JourneyErrorCodes.kt`).
enum JourneyErrorCode: String {
    case config = "JOURNEY_CONFIG_ERROR"
    case initialize = "JOURNEY_INIT_ERROR"
    case start = "JOURNEY_START_ERROR"
    case next = "JOURNEY_NEXT_ERROR"
    case resume = "JOURNEY_RESUME_ERROR"
    case user = "JOURNEY_USER_ERROR"
    case logout = "JOURNEY_LOGOUT_ERROR"
    case dispose = "JOURNEY_DISPOSE_ERROR"
    case state = "JOURNEY_STATE_ERROR"
    case callbackApply = "JOURNEY_CALLBACK_APPLY_ERROR"
    case unsupportedCallback = "JOURNEY_UNSUPPORTED_CALLBACK_ERROR"
    case missingIntegration = "JOURNEY_MISSING_INTEGRATION_ERROR"
}

extension PingRejection {
    static func journey(_ code: JourneyErrorCode, _ kind: Kind, _ message: String) -> BridgeError {
        reject(code.rawValue, kind, message)
    }

    /// `Journey instance not found for id=<id>` (`RNPingJourneyCommon`'s registry lookup).
    static func journeyNotFound(_ id: String) -> BridgeError {
        journey(.state, .state, "Journey instance not found for id=\(id)")
    }
}
