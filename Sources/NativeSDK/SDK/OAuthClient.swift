import AuthBridgeCore
import IdentityServer

/// The SDK's OAuth calls to the identity server: the authorization code grant with PKCE (the SSO
/// token standing in for a browser), the refresh grant, RFC 8693 token exchange and RFC 7009
/// revocation. A refusal by the server is `.oauth`; an unreachable server is `.transport`, so
/// callers can tell "log out" from "try again".
struct OAuthClient {
    let server: OAuthServer
    let options: SDKOptions
    let clock: Clock
    let random: RandomSource

    func authorize(ssoToken: String) throws(SDKError) -> AccessToken {
        let verifier = random.alphanumeric(43)
        let state = random.alphanumeric(16)
        let request = AuthorizeRequest(
            ssoToken: ssoToken, clientId: options.oauthClientId, redirectUri: options.oauthRedirectUri,
            scope: options.oauthScope, state: state, codeChallenge: PKCE.challenge(for: verifier))
        let redirect = try call { () throws(TransportError) in try server.authorize(request) }
        guard redirect.status == 302, let location = redirect.headers["Location"] else {
            throw Self.error(of: redirect.body)
        }
        let query = PercentEncoding.queryParameters(of: location)
        if let error = query["error"] { throw .oauth(error: error, description: query["error_description"] ?? "") }
        guard query["state"] == state, let code = query["code"] else {
            throw .oauth(error: "invalid_state", description: "The state of the authorization response does not match")
        }
        return try exchange(code: code, verifier: verifier, sessionToken: ssoToken)
    }

    /// The authorization code grant for a code obtained elsewhere (a DaVinci flow's
    /// `authorizeResponse`), with the PKCE verifier that went with its authorize request.
    func exchange(code: String, verifier: String?, sessionToken: String?) throws(SDKError) -> AccessToken {
        var form = [
            "client_id": options.oauthClientId, "code": code, "grant_type": "authorization_code",
            "redirect_uri": options.oauthRedirectUri,
        ]
        form["code_verifier"] = verifier
        return try token(form, previous: nil, sessionToken: sessionToken)
    }

    func refresh(_ current: AccessToken, sessionToken: String?) throws(SDKError) -> AccessToken {
        guard let refreshToken = current.refreshToken else {
            throw .oauth(error: "invalid_grant", description: "No refresh token")
        }
        return try token(
            [
                "grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": options.oauthClientId,
                "scope": current.scope, "response_type": "token",
            ], previous: current, sessionToken: sessionToken)
    }

    /// RFC 8693 with an access token as the subject.
    func exchange(subjectToken: String, sessionToken: String?) throws(SDKError) -> AccessToken {
        try token(
            [
                "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "subject_token": subjectToken,
                "subject_token_type": "urn:ietf:params:oauth:token-type:access_token",
                "requested_token_type": "urn:ietf:params:oauth:token-type:access_token",
                "client_id": options.oauthClientId,
            ], previous: nil, sessionToken: sessionToken)
    }

    /// AM's `sessions?_action=validate`: false only when the server says the session is not
    /// valid; any other answer leaves the credentials alone (the refresh decides).
    func sessionIsValid(_ ssoToken: String) throws(SDKError) -> Bool {
        let reply = try call { () throws(TransportError) in try server.validateSession(ssoToken: ssoToken) }
        return !(reply.status == 200 && reply.body["valid"] == .bool(false))
    }

    /// Revocation is best effort, as in FRAuth: a failure is logged, never thrown.
    func revoke(_ token: AccessToken) {
        let form = ["token": token.refreshToken ?? token.value, "client_id": options.oauthClientId]
        if let reply = try? server.revoke(form: form), reply.isSuccess { return }
        logInfo("token revocation failed; the tokens are forgotten anyway")
    }

    private func token(
        _ form: [String: String], previous: AccessToken?, sessionToken: String?
    ) throws(SDKError) -> AccessToken {
        let reply = try call { () throws(TransportError) in try server.token(form: form) }
        guard reply.status == 200,
            let token = AccessToken.from(
                response: reply.body, receivedAt: clock.now, previous: previous, sessionToken: sessionToken)
        else { throw Self.error(of: reply.body) }
        return token
    }

    func call(_ body: () throws(TransportError) -> ServerReply) throws(SDKError) -> ServerReply {
        do {
            return try body()
        } catch {
            throw .transport(error.message)
        }
    }

    static func error(of body: JSONValue) -> SDKError {
        if let error = body["error"]?.stringValue {
            return .oauth(error: error, description: body["error_description"]?.stringValue ?? "")
        }
        // Not an OAuth error: AM's own error JSON (`{"code":404,"reason":"Not Found","message":…}`
        // from a path nothing serves) keeps AM's message, which says what went wrong.
        return .oauth(error: "server_error", description: body["message"]?.stringValue ?? "")
    }
}
