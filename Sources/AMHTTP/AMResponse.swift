import AuthBridgeCore
import HTTPServer
import IdentityServer

/// Responses as AM writes them: JSON with AM's content type, errors as `{code, reason, message}`.
enum AMResponse {
    static let jsonType = HTTPRequest.Header("Content-Type", "application/json;charset=UTF-8")
    static let noStore = HTTPRequest.Header("Cache-Control", "no-store")

    static func json(_ status: Int, _ body: JSONValue, headers: [HTTPRequest.Header] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [jsonType] + headers, body: JSONWriter().bytes(body))
    }

    /// A reply of the identity server, its headers in a stable order (they come as a dictionary).
    static func from(_ reply: ServerReply, headers extra: [HTTPRequest.Header] = []) -> HTTPResponse {
        let headers = reply.headers.keys.sorted().map { HTTPRequest.Header($0, reply.headers[$0]!) } + extra
        if reply.body == .null { return HTTPResponse(status: reply.status, headers: headers) }
        return json(reply.status, reply.body, headers: headers)
    }

    static func error(_ status: Int, _ message: String, headers: [HTTPRequest.Header] = []) -> HTTPResponse {
        json(
            status,
            [
                "code": .int(Int64(status)), "reason": .string(HTTPResponse.reasonPhrase(status)),
                "message": .string(message),
            ], headers: headers)
    }

    /// The server could not be reached (a remote one): AM's shape, the cause in the message.
    static func unavailable(_ failure: TransportError) -> HTTPResponse {
        error(502, "The identity server could not be reached: \(failure.message)")
    }
}
