import AuthBridgeCore

/// What the issuer remembers of the tokens it issued, and an administrator expiring a user's
/// access tokens. Access tokens are stateless JWTs: the issuer keeps no list of them, so each
/// grant keeps what made its last few (never the token itself: the claims are made again from
/// these and the grant, by the same functions that made them for signing) for the inspector to
/// show and for an expiry to reach by `jti`; older ones are judged by their `iat`.
struct IssuedTokens {
    /// How many access tokens a grant remembers, and how many ended grants the issuer keeps.
    static let keptAccessTokens = 4
    static let keptEndedGrants = 8

    /// What an access token's claims are made of beyond its grant.
    struct Access {
        var jti: String
        /// The JWT's first segment (base64url JSON), decoded only when someone looks.
        var header: String
        var iat: Int64
        var exp: Int64
        var grantType: String
        var auditTrackingId: String
        /// When an administrator expired it (`expireAccessTokens`), on the daemon's clock.
        var expiredAt: Double?
    }

    /// What an ID token's claims are made of beyond its grant.
    struct ID {
        var iat: Int64
        var exp: Int64
        var auditTrackingId: String
        var atHash: String
        var nonce: String?
    }

    private(set) var access: [Access] = []
    /// The last ID token issued.
    var id: ID?

    mutating func add(_ token: Access) {
        access.append(token)
        if access.count > Self.keptAccessTokens { access.removeFirst(access.count - Self.keptAccessTokens) }
    }

    /// Marks every remembered token expired now (those already expired keep their time).
    mutating func expireAll(at now: Double) {
        for index in access.indices where access[index].expiredAt == nil { access[index].expiredAt = now }
    }

    func find(_ jti: String) -> Access? { access.last { $0.jti == jti } }
}

/// What the daemon would say of an access token: introspection's `active`, or why not.
public enum AccessTokenState: String, Sendable {
    case active, expired, revoked
}

extension OAuthIssuer {
    /// An access token's claims, as AM's stateless tokens carry them.
    func accessClaims(_ grant: Grant, _ token: IssuedTokens.Access) -> JSONObject {
        [
            "sub": .string(grant.userId), "cts": "OAUTH2_STATELESS_GRANT", "auth_level": 0,
            "auditTrackingId": .string(token.auditTrackingId), "subname": .string(grant.userId),
            "iss": .string(grant.issuer ?? config.issuer), "tokenName": "access_token", "token_type": "Bearer",
            "authGrantId": .string(grant.id), "aud": .string(grant.clientId), "nbf": .int(token.iat),
            "grant_type": .string(token.grantType), "scope": .array(grant.scopes.map { .string($0) }),
            "auth_time": .int(Int64(grant.authTime)), "realm": .string(config.realmPath), "exp": .int(token.exp),
            "iat": .int(token.iat), "expires_in": .int(token.exp - token.iat), "jti": .string(token.jti),
        ]
    }

    /// An ID token's claims, as AM's carry them.
    func idClaims(_ grant: Grant, _ token: IssuedTokens.ID) -> JSONObject {
        var claims: JSONObject = [
            "at_hash": .string(token.atHash), "sub": .string(grant.userId),
            "auditTrackingId": .string(token.auditTrackingId), "subname": .string(grant.userId),
            "iss": .string(grant.issuer ?? config.issuer), "tokenName": "id_token", "aud": .string(grant.clientId),
            "acr": "0", "org.forgerock.openidconnect.ops": .string(grant.opsId), "azp": .string(grant.clientId),
            "auth_time": .int(Int64(grant.authTime)), "realm": .string(config.realmPath), "exp": .int(token.exp),
            "tokenType": "JWTToken", "iat": .int(token.iat),
        ]
        if let nonce = token.nonce { claims["nonce"] = .string(nonce) }
        return claims
    }

    /// The one judgement of an access token of `grant` (validGrant and the inspector both ask it):
    /// revoked (itself, or its grant ended), expired (its `exp` passed, or an administrator
    /// expired it), or active.
    func state(of claims: AccessClaims, in grant: Grant?) -> AccessTokenState {
        guard let grant, revokedAccessTokens[claims.jti] == nil else { return .revoked }
        guard let exp = claims.exp, clock.now < Double(exp), !expiredByAdministrator(claims, grant) else {
            return .expired
        }
        return .active
    }

    /// A token the grant remembers carries its own mark; an older one counts as expired when it
    /// was issued in or before the second the user's tokens were expired.
    private func expiredByAdministrator(_ claims: AccessClaims, _ grant: Grant) -> Bool {
        guard let cutoff = accessTokensExpired[grant.userId] else { return false }
        if let known = grant.issued.find(claims.jti) { return known.expiredAt != nil }
        return (claims.iat ?? 0) <= Int64(cutoff.rounded(.down))
    }

    /// An administrator expiring every access token issued to the user so far: from now on
    /// introspection calls them inactive and userinfo refuses them, as for an expired token.
    /// Their refresh tokens and the user's sessions stay. Returns how many live tokens the
    /// grants remembered (older ones are reached by their `iat`).
    func expireAccessTokens(userId: String) -> Int {
        let now = clock.now
        var expired = 0
        for (id, grant) in grants where grant.userId == userId {
            expired += grant.issued.access.filter { $0.expiredAt == nil && now < Double($0.exp) }.count
            grants[id]?.issued.expireAll(at: now)
        }
        // A cutoff older than an access token's lifetime covers nothing still live.
        for (user, at) in accessTokensExpired where at + config.accessTokenLifetime < now {
            accessTokensExpired[user] = nil
            if tracksChanges { changes.expired.insert(user) }
        }
        accessTokensExpired[userId] = now
        if tracksChanges { changes.expired.insert(userId) }
        return expired
    }
}

extension EmbeddedAM {
    /// One access token as the inspector shows it: decoded, with what the daemon would say of it.
    public struct AccessTokenView: Equatable, Sendable {
        public var header: JSONObject
        public var claims: JSONObject
        public var expires: Double
        public var state: AccessTokenState
        /// When an administrator expired it.
        public var expiredAt: Double?
    }
}

extension OAuthIssuer {
    func accessTokenViews(_ grant: Grant, ended: Bool) -> [EmbeddedAM.AccessTokenView] {
        grant.issued.access.map { token in
            let claims = AccessClaims(exp: token.exp, iat: token.iat, jti: token.jti, grantId: grant.id)
            var header = JSONObject()
            if let bytes = Base64URL.decode(token.header), case .object(let object)? = try? JSONParser.parse(bytes) {
                header = object
            }
            return EmbeddedAM.AccessTokenView(
                header: header, claims: accessClaims(grant, token), expires: Double(token.exp),
                state: state(of: claims, in: ended ? nil : grant), expiredAt: token.expiredAt)
        }
    }
}
