import AuthBridgeCore

/// AM's error bodies (am-protocol.md §2.4, §4.2–§4.4), written once so the embedded server and
/// tests agree on every byte.
public enum AMErrors {
    public static let loginFailure: JSONValue = [
        "code": 401, "reason": "Unauthorized", "message": "Login failure",
    ]

    /// An authId that is unknown, already answered, or past the journey's lifetime.
    public static let sessionTimedOut: JSONValue = [
        "code": 401, "reason": "Unauthorized", "message": "Session has timed out",
        "detail": ["errorCode": "110"],
    ]

    public static let accessDenied: JSONValue = [
        "code": 401, "reason": "Unauthorized", "message": "Access Denied",
    ]

    public static func badRequest(_ message: String) -> JSONValue {
        ["code": 400, "reason": "Bad Request", "message": .string(message)]
    }

    public static func oauth(_ error: String, _ description: String) -> JSONValue {
        ["error_description": .string(description), "error": .string(error)]
    }

    public static let invalidToken = oauth(
        "invalid_token", "The access token provided is expired, revoked, malformed, or invalid for other reasons.")
}
