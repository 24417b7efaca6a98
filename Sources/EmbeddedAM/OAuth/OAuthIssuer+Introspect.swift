import AuthBridgeCore
import IdentityServer

/// RFC 7662 token introspection as AM answers it: the claims of a live access or refresh token
/// of the calling client, `{"active": false}` for anything else (expired, revoked, another
/// client's, not ours). The caller names itself with `client_id` (public clients).
extension OAuthIssuer {
    func introspect(form: [String: String]) -> ServerReply {
        guard let client = clients.find(form["client_id"]) else {
            return ServerReply(status: 400, body: AMErrors.oauth("invalid_client", "Client authentication failed"))
        }
        guard let token = form["token"], !token.isEmpty else {
            return ServerReply(status: 400, body: AMErrors.oauth("invalid_request", "Missing parameter, 'token'"))
        }
        let inactive = ServerReply(status: 200, body: ["active": false])
        if form["token_type_hint"] != "refresh_token", let grant = validGrant(forAccessToken: token),
            let claims = verifiedAccessToken(token), grant.clientId == client.clientId
        {
            return ServerReply(status: 200, body: body(grant, tokenType: "Bearer", expires: claims.exp ?? 0))
        }
        if let grantId = grantByRefreshToken[token], let grant = grants[grantId], clock.now < grant.refreshExpires,
            grant.clientId == client.clientId
        {
            return ServerReply(
                status: 200, body: body(grant, tokenType: "refresh_token", expires: Int64(grant.refreshExpires)))
        }
        return inactive
    }

    private func body(_ grant: Grant, tokenType: String, expires: Int64) -> JSONValue {
        let username = users.find(id: grant.userId)?.username ?? grant.userId
        return [
            "active": true, "scope": .string(grant.scopes.joined(separator: " ")), "realm": .string(config.realmPath),
            "client_id": .string(grant.clientId), "user_id": .string(username), "username": .string(username),
            "token_type": .string(tokenType), "exp": .int(expires), "sub": .string(grant.userId),
            "subname": .string(grant.userId), "iss": .string(grant.issuer ?? config.issuer), "auth_level": 0,
            "authGrantId": .string(grant.id),
        ]
    }
}
