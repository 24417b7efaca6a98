import AuthBridgeCore

/// PingOne's JSON error body (`{code, message}`): a top-level code a client handles, and a message
/// for people (https://developer.pingidentity.com/pingone-api/platform/reference/error-codes.html).
/// PingOne adds a unique `id` for its logs; AuthBridge leaves it out, as a fault uses no randomness.
public enum PingOneErrors {
    /// The body for any HTTP error status: the top-level code PingOne gives that status, and
    /// `message` or the status's reason phrase.
    public static func status(_ status: Int, message: String? = nil) -> JSONValue {
        ["code": .string(code(status)), "message": .string(message ?? AMErrors.reasonPhrase(status))]
    }

    static func code(_ status: Int) -> String {
        switch status {
        case 401, 403: return "ACCESS_FAILED"
        case 404: return "NOT_FOUND"
        case 405: return "METHOD_NOT_ALLOWED"
        case 415: return "UNSUPPORTED_MEDIA_TYPE"
        case 429: return "REQUEST_LIMITED"
        case 400..<500: return "INVALID_REQUEST"
        default: return "UNEXPECTED_SERVER_ERROR"
        }
    }
}
