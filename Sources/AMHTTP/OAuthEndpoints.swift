import AuthBridgeCore
import HTTPServer
import IdentityServer

/// The OAuth 2.0 / OIDC endpoints after authorize: token (code, refresh, token exchange),
/// userinfo, revocation, introspection, end session. Bodies and statuses are the identity
/// server's; this adds AM's headers (`Cache-Control: no-store`, `WWW-Authenticate` on a refused
/// bearer token).
extension AMRoutes {
    func accessToken(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        AMResponse.from(try server.token(form: request.formParameters), headers: [.init("Pragma", "no-cache")])
    }

    func userInfo(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        guard let token = request.bearerToken ?? request.parameters["access_token"] else {
            // RFC 6750 §3.1: no credentials, no error code.
            return AMResponse.json(
                401, AMErrors.invalidToken,
                headers: [.init("WWW-Authenticate", #"Bearer realm="\#(config.realmPath)""#)])
        }
        let reply = try server.userInfo(accessToken: token)
        guard reply.status == 401 else { return AMResponse.from(reply, headers: [AMResponse.noStore]) }
        let description = reply.body["error_description"]?.stringValue ?? ""
        let challenge =
            #"Bearer realm="\#(config.realmPath)", error="invalid_token", error_description="\#(description)""#
        return AMResponse.from(reply, headers: [.init("WWW-Authenticate", challenge)])
    }

    func revoke(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        AMResponse.from(try server.revoke(form: request.formParameters), headers: [AMResponse.noStore])
    }

    func introspect(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        AMResponse.from(try server.introspect(form: request.formParameters), headers: [AMResponse.noStore])
    }

    /// OIDC RP-initiated logout: ends the session the id token names. With a
    /// `post_logout_redirect_uri` in a client's Post Logout Redirect URIs (its own list, not its
    /// redirect URIs: https://docs.pingidentity.com/pingam/8.1/am-oidc1/rest-api-oidc-endsession-endpoint.html),
    /// the browser is sent there; another is refused as AM's end-session validation refuses it
    /// (`RedirectUriMismatchException`, as in WrenSecurity/wrenam's
    /// `org/forgerock/openidconnect/EndSessionParametersValidator.java`): 400
    /// `redirect_uri_mismatch`, the error AM's authorize gives for a redirect URI.
    func endSession(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let parameters = request.parameters
        let reply = try server.endSession(
            idTokenHint: parameters["id_token_hint"] ?? "", clientId: parameters["client_id"], at: .endSessionEndpoint)
        guard reply.isSuccess, let target = parameters["post_logout_redirect_uri"] else {
            return AMResponse.from(reply)
        }
        guard config.clients.contains(where: { $0.postLogoutRedirectUris.contains(target) }) else {
            let mismatch = AMErrors.oauth(
                "redirect_uri_mismatch", "The redirection URI provided does not match a pre-registered value.")
            return AMResponse.json(400, mismatch)
        }
        let location = parameters["state"].map { "\(target)?state=\(PercentEncoding.escape($0))" } ?? target
        return HTTPResponse(status: 302, headers: [.init("Location", location), AMResponse.noStore])
    }
}
