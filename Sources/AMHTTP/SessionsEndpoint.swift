import AuthBridgeCore
import HTTPServer
import IdentityServer

/// `POST …/json/realms/root/realms/<realm>/sessions?_action=…`: logout, validate,
/// getSessionInfo, refresh. The session is named by `{"tokenId": …}` in the body, a header named
/// like the cookie (iOS SDK), or the cookie (JS SDK, which sends no body).
extension AMRoutes {
    static let sessionVersions = ["1.1", "2.0", "2.1", "3.0", "3.1", "4.0", "4.1", "5.0", "5.1"]

    func sessions(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let version: String
        switch APIVersion.negotiate(request.header("Accept-API-Version"), supported: Self.sessionVersions) {
        case .success(let chosen): version = chosen
        case .failure(let refusal): return refusal.response
        }
        let headers = [APIVersion.header(version), AMResponse.noStore]
        var named: String?
        switch request.jsonBody {
        case .invalid: return AMResponse.error(400, "The request body is not a JSON object", headers: headers)
        case .object(let body): named = body["tokenId"]?.stringValue
        case .none: break
        }
        let token = named.flatMap { $0.isEmpty ? nil : $0 } ?? request.ssoToken(cookieName: config.cookieName)
        switch request.queryParameters["_action"] {
        case "logout":
            guard let token else { return AMResponse.json(401, AMErrors.accessDenied, headers: headers) }
            let reply = try server.logoutSession(ssoToken: token)
            guard reply.isSuccess else { return AMResponse.from(reply, headers: headers) }
            return AMResponse.from(reply, headers: headers + [clearCookie])
        case "validate":
            guard let token else { return AMResponse.json(200, ["valid": false], headers: headers) }
            return AMResponse.from(try server.validateSession(ssoToken: token), headers: headers)
        case let action? where action == "getSessionInfo" || action == "refresh":
            guard let token else { return AMResponse.json(401, AMErrors.accessDenied, headers: headers) }
            return AMResponse.from(
                try server.sessionInfo(ssoToken: token, refresh: action == "refresh"), headers: headers)
        case let action?:
            return AMResponse.error(501, "Action '\(action)' not implemented for this resource", headers: headers)
        case nil:
            return AMResponse.error(
                400, "An _action is required: logout, validate, getSessionInfo or refresh", headers: headers)
        }
    }

    /// What AM sends on logout: the cookie emptied and expired, on the path it was set with.
    var clearCookie: HTTPRequest.Header {
        .init("Set-Cookie", "\(config.cookieName)=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/")
    }
}
