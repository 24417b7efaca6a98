import AuthBridgeCore
import HTTPServer
import Host

/// The admin REST API (docs/seed.md, "Admin API"): the emulator's users, devices, sessions and
/// state under `/emulator/v1/`, in the shape of Firebase Auth Emulator's management endpoints
/// (`/emulator/v1/projects/{id}/accounts`, …). A test's own tooling uses it over HTTP as it uses
/// `emulator.*` over stdio. It is served only when the HTTP face is bound to loopback (the
/// surface is not registered otherwise), answers only loopback peers, and refuses a browser's
/// cross-origin call unless its origin was allowed with `--cors-origin` (its own origin, the
/// inspector page's, is not cross-origin). Errors are JSON:
/// `{"error": {"code", "status", "message", "field"}}`, `field` the member at fault.
public struct AdminAPI: Sendable {
    public static let prefix = "/emulator/v1"

    let corsOrigins: [String]
    /// The HTTP face's own origin: a page it serves (the inspector) calls from there.
    let ownOrigin: String?

    public init(corsOrigins: [String], ownOrigin: String? = nil) {
        self.corsOrigins = corsOrigins
        self.ownOrigin = ownOrigin
    }

    /// Whether the request is the admin API's (from its path alone).
    public static func claims(_ request: HTTPRequest) -> Bool {
        request.path == prefix || request.path.hasPrefix(prefix + "/")
    }

    /// Whether an HTTP face at this origin (`http://127.0.0.1:8080`) may serve the admin API.
    public static func served(atOrigin origin: String?) -> Bool {
        guard let origin, origin.hasPrefix("http://") else { return false }
        let authority = origin.dropFirst("http://".count)
        let host = String(authority.prefix { $0 != ":" && $0 != "/" })
        return Sockets.Endpoint(host: host, port: 0).isLoopback
    }

    public func respond(_ request: HTTPRequest, world: World) -> HTTPResponse {
        guard request.isFromLoopback else {
            return AdminError(403, "the admin API answers loopback clients only").response(cors: nil)
        }
        let origin = request.header("Origin")
        if let origin, !allows(origin) {
            return AdminError(
                403, "cross-origin call from \(origin) refused: start with --cors-origin \(origin) to allow it"
            ).response(cors: nil)
        }
        if request.method == "OPTIONS" {
            var headers = Self.corsHeaders(origin)
            headers.append(.init("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS"))
            headers.append(.init("Access-Control-Allow-Headers", "Content-Type"))
            return HTTPResponse(status: 204, headers: headers)
        }
        let segments = request.path.dropFirst(Self.prefix.count).split(separator: "/").map {
            PercentEncoding.unescape($0)
        }
        let routes = AdminResources.all.flatMap(\.routes)
        let matching = routes.compactMap { route in route.match(segments).map { (route, $0) } }
        guard !matching.isEmpty else {
            return AdminError(404, "no admin route \(request.path) (docs/seed.md lists them)").response(cors: origin)
        }
        guard let (route, captures) = matching.first(where: { $0.0.method == request.method }) else {
            let allowed = matching.map(\.0.method).joined(separator: ", ")
            return AdminError(405, "\(request.method) \(request.path): allowed \(allowed)").response(cors: origin)
        }
        do {
            let call = try AdminCall(request: request, captures: captures)
            let reply = try route.handle(call, world)
            return reply.response(cors: origin)
        } catch {
            return error.response(cors: origin)
        }
    }

    private func allows(_ origin: String) -> Bool {
        origin.lowercased() == ownOrigin?.lowercased() || corsOrigins.contains("*")
            || corsOrigins.contains { $0.lowercased() == origin.lowercased() }
    }

    static func corsHeaders(_ origin: String?) -> [HTTPRequest.Header] {
        guard let origin else { return [] }
        return [.init("Access-Control-Allow-Origin", origin), .init("Vary", "Origin")]
    }
}
