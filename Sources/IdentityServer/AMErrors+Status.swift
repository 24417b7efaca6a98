import AuthBridgeCore

extension AMErrors {
    /// AM's JSON error body for any HTTP status (`{code, reason, message}`, as its REST layer
    /// writes a `ResourceException`), with the status's reason phrase.
    public static func status(_ code: Int, message: String? = nil) -> JSONValue {
        let reason = reasonPhrase(code)
        return ["code": .int(Int64(code)), "reason": .string(reason), "message": .string(message ?? reason)]
    }

    /// The status's reason phrase (RFC 9110), or its class's.
    static func reasonPhrase(_ code: Int) -> String {
        reasonPhrases[code] ?? (code >= 500 ? "Server Error" : "Client Error")
    }

    private static let reasonPhrases = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 412: "Precondition Failed", 413: "Content Too Large",
        415: "Unsupported Media Type", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]
}
