import AuthBridgeCore
import NativeSDK

/// How the Ping modules reject (rn core `GenericError`, ios `core/ios/Errors/GenericError.swift`,
/// android `core/android/…/error/GenericError.kt`): RN's `reject(code, message, userInfo)` with
/// `userInfo = {type, error, message, code?, status?}`. The JS layer's `PingError.from` reads
/// `userInfo.type`; without it every error would read `unknown_error`.
enum PingRejection {
    /// `PingError` types the modules use.
    enum Kind: String {
        case argument = "argument_error", auth = "auth_error", exchange = "exchange_error", internalError =
            "internal_error"
        case network = "network_error", state = "state_error", unknown = "unknown_error"
        case parse = "parse_error"
        case fido = "fido_error"
        case binding = "binding_error"
    }

    static func reject(_ code: String, _ kind: Kind, _ message: String, status: Int? = nil) -> BridgeError {
        var userInfo: JSONObject = [
            "type": .string(kind.rawValue), "error": .string(code), "message": .string(message),
        ]
        if let status { userInfo["status"] = .int(Int64(status)) }
        return .typedRejection(code: code, message: message, userInfo: .object(userInfo))
    }

    /// An OIDC failure of the SDK as a rejection with `code` (ios `JourneyErrorMapper.map`,
    /// android `OidcErrorMapper`): authorize → auth_error, API → exchange_error with the status,
    /// transport → network_error.
    static func sdk(_ error: PingSDKError, code: String) -> BridgeError {
        switch error {
        case .authorize(let message): return reject(code, .auth, message)
        case .api(let status, let message): return reject(code, .exchange, message, status: status)
        case .network(let message): return reject(code, .network, message)
        }
    }
}
