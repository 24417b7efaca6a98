import AuthBridgeCore
import HTTPServer
import IdentityServer

extension AMRoute {
    /// The endpoint's name, as a fault on the HTTP face names it.
    var endpoint: AMEndpoint {
        switch self {
        case .authenticate: return .authenticate
        case .sessions: return .sessions
        case .serverInfo: return .serverInfo
        case .authorize: return .authorize
        case .accessToken: return .accessToken
        case .userInfo: return .userInfo
        case .revoke: return .revoke
        case .introspect: return .introspect
        case .endSession: return .endSession
        case .wellKnown: return .wellKnown
        case .jwks: return .jwks
        case .devices: return .devices
        case .pushMessage: return .pushMessage
        case .loginPage: return .loginPage
        }
    }
}

extension AMRoutes {
    /// The endpoint a path names in `realm`; nil for one AM does not serve.
    public static func endpoint(of path: String, realm: String) -> AMEndpoint? {
        guard case .success(let route) = AMRoute.find(path, realm: realm) else { return nil }
        return route.endpoint
    }

    /// A fault's status, answered as AM answers an error: its JSON body, with the CORS headers
    /// a browser needs to read it.
    public static func failure(
        _ request: HTTPRequest, status: Int, message: String?, config: AMHTTPConfig
    ) -> HTTPResponse {
        logInfo("HTTP \(request.method) \(request.path) \(status) (fault)")
        let cors = CORS(origins: config.corsOrigins, cookieName: config.cookieName)
        return cors.decorate(AMResponse.json(status, AMErrors.status(status, message: message)), for: request)
    }
}
