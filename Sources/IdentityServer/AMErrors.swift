import AuthBridgeCore

/// AM's error bodies (https://docs.pingidentity.com/auth-node-ref/latest/failure.html; OAuth's per RFC 6749 §5.2,
/// RFC 6750 §3.1), written once so the embedded server and
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

    /// A journey ending in a Failure node, with what Set Failure Details or the lockout mode added.
    public static func loginFailure(message: String?, detail: JSONObject) -> JSONValue {
        var body: JSONObject = ["code": 401, "reason": "Unauthorized", "message": .string(message ?? "Login failure")]
        if detail.count > 0 { body["detail"] = .object(detail) }
        return .object(body)
    }

    /// Realm lockout mode: the warning before the lock (https://docs.pingidentity.com/auth-node-ref/latest/failure.html).
    public static func lockoutWarning(remaining: Int) -> String {
        "Warning: You will be locked out after \(remaining) more failure(s)."
    }

    public static let userLockedOut: JSONValue = [
        "code": 401, "reason": "Unauthorized", "message": "User Locked Out.", "detail": ["failureUrl": ""],
    ]

    /// `?suspendedId=` naming no suspended journey, or one whose time is up.
    public static let suspendedIdNotFound: JSONValue = [
        "code": 401, "reason": "Unauthorized",
        "message":
            "org.forgerock.openam.auth.nodes.framework.token.SuspendedAuthSessionException: Token not found. It may have expired.",
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
