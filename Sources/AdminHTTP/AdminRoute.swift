import AuthBridgeCore
import EmbeddedAM
import HTTPServer
import Host

/// One endpoint of the admin API: a method and a path pattern under `AdminAPI.prefix`
/// (`users/{username}/devices`), and what it does with the world, in the request's unit.
struct AdminRoute: Sendable {
    let method: String
    let pattern: [String]
    let handle: @Sendable (AdminCall, World) throws(AdminError) -> AdminReply

    init(
        _ method: String, _ pattern: String,
        _ handle: @escaping @Sendable (AdminCall, World) throws(AdminError) -> AdminReply
    ) {
        self.method = method
        self.pattern = pattern.split(separator: "/").map(String.init)
        self.handle = handle
    }

    /// The `{name}` captures when the path fits the pattern.
    func match(_ segments: [String]) -> [String: String]? {
        guard segments.count == pattern.count else { return nil }
        var captures: [String: String] = [:]
        for (part, segment) in zip(pattern, segments) {
            if part.hasPrefix("{") {
                captures[String(part.dropFirst().dropLast())] = segment
            } else if part != segment {
                return nil
            }
        }
        return captures
    }
}

/// The endpoints of one resource (users, devices, sessions, state): one file each, listed in
/// `AdminResources.all`.
struct AdminResource: Sendable {
    let name: String
    let routes: [AdminRoute]
}

/// A request as a route reads it: its path's captures and its JSON body.
struct AdminCall {
    let request: HTTPRequest
    let captures: [String: String]
    /// The body parsed, or nil when there is none.
    let body: JSONValue?

    init(request: HTTPRequest, captures: [String: String]) throws(AdminError) {
        self.request = request
        self.captures = captures
        if request.body.isEmpty {
            body = nil
        } else {
            do { body = try JSONParser.parse(request.body) } catch {
                throw AdminError(400, "the body is not JSON: \(error)")
            }
        }
    }

    func capture(_ name: String) -> String { captures[name] ?? "" }

    /// The body as an object; a missing body or another kind of value is refused.
    func object() throws(AdminError) -> JSONObject {
        guard case .object(let object)? = body else {
            throw AdminError(400, "the body must be a JSON object")
        }
        return object
    }
}

struct AdminReply {
    var status = 200
    var body: JSONValue

    init(_ body: JSONValue, status: Int = 200) {
        self.body = body
        self.status = status
    }

    func response(cors origin: String?) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [.init("Content-Type", "application/json")] + AdminAPI.corsHeaders(origin),
            body: JSONWriter().bytes(body))
    }
}

/// A refusal: its status, why, and the member at fault (`users[0].passwordHash.iterations`,
/// `username`) when one is.
struct AdminError: Error {
    let status: Int
    let message: String
    let field: String?

    init(_ status: Int, _ message: String, field: String? = nil) {
        self.status = status
        self.message = message
        self.field = field
    }

    /// A seed document's fault, its path kept (under `under`, the part of the document the
    /// endpoint wraps the body in, which the body itself does not have).
    init(_ error: SeedError, droppingPrefix prefix: String = "") {
        var path = error.path
        if !prefix.isEmpty, path.hasPrefix(prefix) {
            path = String(path.dropFirst(prefix.count))
            if path.hasPrefix(".") { path.removeFirst() }
        }
        self.init(400, path.isEmpty ? error.reason : "\(path): \(error.reason)", field: path.isEmpty ? nil : path)
    }

    func response(cors origin: String?) -> HTTPResponse {
        var error: JSONObject = [
            "code": .int(Int64(status)), "status": .string(HTTPResponse.reasonPhrase(status)),
            "message": .string(message),
        ]
        if let field { error["field"] = .string(field) }
        return AdminReply(["error": .object(error)], status: status).response(cors: origin)
    }
}
