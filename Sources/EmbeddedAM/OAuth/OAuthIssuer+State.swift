import AuthBridgeCore

/// RFC 8693 names.
public enum TokenExchange {
    public static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"
    public static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"
}

// MARK: saved state

extension OAuthIssuer {
    /// Grants, rotated-out refresh tokens and revoked access tokens, in a stable order. Codes are
    /// left out: they live two minutes and belong to a journey in progress.
    var snapshot: JSONValue {
        [
            "signingKey": .string(Base64URL.encode(signingKey)),
            "grants": .array(grants.keys.sorted().map { id in
                let grant = grants[id]!
                return [
                    "id": .string(grant.id), "clientId": .string(grant.clientId), "userId": .string(grant.userId),
                    "scopes": .array(grant.scopes.map { .string($0) }), "authTime": .double(grant.authTime),
                    "opsId": .string(grant.opsId), "refreshToken": .string(grant.refreshToken),
                    "refreshExpires": .double(grant.refreshExpires),
                ]
            }),
            "retiredRefreshTokens": .array(retiredRefreshTokens.sorted().map { .string($0) }),
            "revokedAccessTokens": .array(revokedAccessTokens.sorted().map { .string($0) }),
        ]
    }

    func restore(_ reader: StateReader) throws(StateError) {
        let key = try reader.bytes("signingKey")
        guard key.count >= 32 else { throw StateError("\(reader.path).signingKey: expected at least 32 bytes") }
        var restored: [String: Grant] = [:]
        var byRefreshToken: [String: String] = [:]
        for grant in try reader.readers("grants") {
            let value = Grant(
                id: try grant.string("id"), clientId: try grant.string("clientId"), userId: try grant.string("userId"),
                scopes: try grant.strings("scopes"), authTime: try grant.time("authTime"), opsId: try grant.string("opsId"),
                refreshToken: try grant.string("refreshToken"), refreshExpires: try grant.time("refreshExpires"))
            guard restored[value.id] == nil, byRefreshToken[value.refreshToken] == nil else {
                throw StateError("\(grant.path): a grant id or refresh token appears twice")
            }
            restored[value.id] = value
            byRefreshToken[value.refreshToken] = value.id
        }
        signingKey = key
        grants = restored
        grantByRefreshToken = byRefreshToken
        retiredRefreshTokens = Set(try reader.strings("retiredRefreshTokens"))
        revokedAccessTokens = Set(try reader.strings("revokedAccessTokens"))
    }
}
