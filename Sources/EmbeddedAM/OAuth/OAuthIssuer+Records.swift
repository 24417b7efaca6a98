import AuthBridgeCore

/// What the issuer remembers of the tokens it issued, and an administrator expiring a user's
/// access tokens. Access tokens are stateless JWTs: the issuer keeps no list of them, so each
/// grant keeps its last few (their header and claims, never the token) for the inspector to show
/// and for an expiry to reach by `jti`; older ones are judged by their `iat`.
struct IssuedTokens {
    /// How many access tokens a grant remembers, and how many ended grants the issuer keeps.
    static let keptAccessTokens = 4
    static let keptEndedGrants = 8

    struct Access {
        var jti: String
        /// The JWT's first segment (base64url JSON), decoded only when someone looks.
        var header: String
        var claims: JSONObject
        var iat: Int64
        var exp: Int64
        /// When an administrator expired it (`expireAccessTokens`), on the daemon's clock.
        var expiredAt: Double?
    }

    private(set) var access: [Access] = []
    var idTokenClaims: JSONObject?

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
                header: header, claims: token.claims, expires: Double(token.exp),
                state: state(of: claims, in: ended ? nil : grant), expiredAt: token.expiredAt)
        }
    }
}
