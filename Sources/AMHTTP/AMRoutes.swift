import AuthBridgeCore
import HTTPServer
import IdentityServer

/// AM's REST API over an `IdentityServer`: paths to calls, replies to responses, AM's errors for
/// what matches nothing. It holds no state of its own; whoever calls `respond` decides how calls
/// are serialized (the HTTP face runs each in one Host transaction).
public final class AMRoutes {
    let server: any IdentityServer
    let config: AMHTTPConfig
    let cors: CORS

    public init(server: any IdentityServer, config: AMHTTPConfig) {
        self.server = server
        self.config = config
        cors = CORS(origins: config.corsOrigins, cookieName: config.cookieName)
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.method == "OPTIONS" { return cors.preflight(request) }
        let response: HTTPResponse
        switch AMRoute.find(request.path, realm: config.realm) {
        case .failure(.noSuchPath):
            response = AMResponse.error(404, "Resource '\(request.path)' not found")
        case .failure(.otherRealm(let realm)):
            response = AMResponse.error(404, "Realm '\(realm)' not found (this server serves \(config.realmPath))")
        case .success(let route) where !route.methods.contains(request.method):
            response = AMResponse.error(
                405, "Method \(request.method) not allowed",
                headers: [.init("Allow", route.methods.joined(separator: ", "))])
        case .success(let route):
            do throws(TransportError) {
                response = try handle(route, request)
            } catch {
                response = AMResponse.unavailable(error)
            }
        }
        logInfo("HTTP \(request.method) \(request.path) \(response.status)")
        return cors.decorate(response, for: request)
    }

    private func handle(_ route: AMRoute, _ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        switch route {
        case .authenticate: return try authenticate(request)
        case .sessions: return try sessions(request)
        case .serverInfo: return serverInfo()
        case .authorize: return try authorize(request)
        case .accessToken: return try accessToken(request)
        case .userInfo: return try userInfo(request)
        case .revoke: return try revoke(request)
        case .introspect: return try introspect(request)
        case .endSession: return try endSession(request)
        case .wellKnown: return wellKnown()
        case .jwks: return try jwks()
        case .devices(let user, let kind, let uuid): return try devices(request, user: user, kind: kind, uuid: uuid)
        case .pushMessage: return try pushMessage(request)
        case .loginPage: return try loginPage(request)
        }
    }
}
