import AuthBridgeCore
import NativeSDK

/// The DaVinci module's rejection codes (`davinci/ios/Error/DaVinciErrorCodes.swift`,
/// `davinci/android/…/error/DaVinciErrorCodes.kt`, `davinci/src/types/error.types.ts`).
enum DaVinciErrorCode: String {
    case config = "DAVINCI_CONFIG_ERROR"
    case initialize = "DAVINCI_INIT_ERROR"
    case start = "DAVINCI_START_ERROR"
    case next = "DAVINCI_NEXT_ERROR"
    case collectorApply = "DAVINCI_COLLECTOR_APPLY_ERROR"
    case unsupportedCollector = "DAVINCI_UNSUPPORTED_COLLECTOR_ERROR"
    case session = "DAVINCI_SESSION_ERROR"
    case logout = "DAVINCI_LOGOUT_ERROR"
    case dispose = "DAVINCI_DISPOSE_ERROR"
    case poll = "DAVINCI_POLL_ERROR"
    case state = "DAVINCI_STATE_ERROR"
}

extension PingRejection {
    static func davinci(_ code: DaVinciErrorCode, _ kind: Kind, _ message: String, status: Int? = nil) -> BridgeError {
        reject(code.rawValue, kind, message, status: status)
    }

    /// `DaVinci instance not found for id=<id>` (`RNPingDavinciCommon`'s registry lookup).
    static func davinciNotFound(_ id: String) -> BridgeError {
        davinci(.state, .state, "DaVinci instance not found for id=\(id)")
    }

    /// A failure of the user's OIDC client: iOS maps the OIDC error (`DaVinciErrorMapper.mapOidcError`:
    /// authorize → auth_error, API → exchange_error with the status, network → network_error);
    /// Android rejects every user failure as auth_error with the error's text
    /// (`RNPingDavinciCommon.kt` `getSession`).
    static func davinciUser(_ error: PingSDKError, code: DaVinciErrorCode, platform: Platform) -> BridgeError {
        switch platform {
        case .ios: return sdk(error, code: code.rawValue)
        case .android: return davinci(code, .auth, error.message)
        }
    }
}
