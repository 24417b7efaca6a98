import AuthBridgeCore
import IdentityServer

/// AM's OAuth 2.0 / OIDC provider for public clients: authorize with an SSO token and PKCE
/// (RFC 7636), the code and refresh grants with refresh-token rotation, userinfo, revocation
/// (RFC 7009) and end session. Access and id tokens are JWTs with AM's claims, signed with the
/// issuer's keys (`SigningKeys`: RS256 by default, ES256 or PS256 per client for id tokens) and
/// published at `jwk_uri`; refresh tokens and codes are opaque.
final class OAuthIssuer {
    private struct AuthorizationCode {
        var clientId: String
        var redirectUri: String
        var scopes: [String]
        var challenge: String
        var method: String
        var session: SSOSession
        var expires: Double
        var issuer: String?
        /// The authorize request's `nonce`, for the ID token this code buys (not saved with the
        /// grant: a refreshed ID token carries none, OpenID Connect Core §12.2).
        var nonce: String?
    }

    /// One authorization: every access token it issues names it (`authGrantId`), so revoking the
    /// grant revokes them all.
    struct Grant {
        var id: String
        var clientId: String
        var userId: String
        var scopes: [String]
        var authTime: Double
        var opsId: String
        /// The `iss` its tokens name: AM's unless it was authorized through PingOne's face.
        var issuer: String?
        var refreshToken: String
        var refreshExpires: Double
        /// When it last issued tokens (a counter): the least recently used go first when the
        /// grants must be capped. Not saved.
        var lastUsed: UInt64 = 0
        /// The access tokens it issued last and the last ID token's claims
        /// (`OAuthIssuer+Records.swift`). Not saved.
        var issued = IssuedTokens()
    }

    // Internal rather than private: `OAuthIssuer+Introspect.swift` reads them.
    let config: EmbeddedAMConfig
    /// The realm's clients (configured and imported): every client lookup reads them.
    let clients: OAuthClientRegistry
    let users: UserDirectory
    private let sessions: SessionStore
    let clock: Clock
    private let random: RandomSource
    // Internal rather than private: `OAuthIssuer+State.swift` saves and restores them, and
    // `OAuthIssuer+Keys.swift` signs and verifies with them.
    var keys: SigningKeys
    private var codes: [String: AuthorizationCode] = [:]
    var grants: [String: Grant] = [:]
    var grantByRefreshToken: [String: String] = [:]
    /// Rotated-out refresh tokens, with when they may be forgotten: by then they could not be
    /// valid anyway, and an unknown token is refused exactly as a retired one is.
    var retiredRefreshTokens: [String: Double] = [:]
    /// Revoked access tokens (`jti`), with their expiry: past it the token is refused as expired,
    /// so the entry is no longer needed.
    var revokedAccessTokens: [String: Double] = [:]
    /// When an administrator expired each user's access tokens (`expireAccessTokens`), by user
    /// id: what was issued to them by then counts as expired (`OAuthIssuer+Records.swift`).
    var accessTokensExpired: [String: Double] = [:]
    /// The grants ended last (a revoked refresh token), kept for the inspector to show as
    /// revoked; at most `IssuedTokens.keptEndedGrants`. Not saved.
    var endedGrants: [(grant: Grant, at: Double)] = []
    /// Everything that grows with traffic stays bounded (docs/performance.md): grants past their
    /// refresh expiry go, and beyond `config.retentionCap` the least recently used; retired
    /// tokens likewise.
    lazy var grantPruning = Pruning(cap: config.retentionCap)
    lazy var retiredPruning = Pruning(cap: config.retentionCap)
    private var revokedPruning = Pruning(cap: Int.max)
    var uses: UInt64 = 0
    /// The user whose grant the last token call used or was issued; taken by `EmbeddedAM.takeConcern`.
    var concernedUserId: String?
    /// What changed since the state was last saved (`--state-dir` writes only these); recorded
    /// only when something saves them.
    var changes = Changes()
    var tracksChanges = false

    struct Changes {
        var grants: Set<String> = []
        var retired: Set<String> = []
        var revoked: Set<String> = []
        var expired: Set<String> = []
        var keys = false
    }
    private(set) var refreshCount = 0

    init(
        config: EmbeddedAMConfig, clients: OAuthClientRegistry, users: UserDirectory, sessions: SessionStore,
        clock: Clock, random: RandomSource
    ) {
        self.clients = clients
        self.config = config
        self.users = users
        self.sessions = sessions
        self.clock = clock
        self.random = random
        // The keys' seed, drawn where the HMAC key used to be, so no other seeded value moves.
        keys = SigningKeys(seed: random.bytes(32))
    }

    // MARK: authorize

    func authorize(_ request: AuthorizeRequest) -> ServerReply {
        guard let client = clients.find(request.clientId) else {
            return ServerReply(status: 400, body: AMErrors.oauth("invalid_client", "Client authentication failed"))
        }
        guard client.redirectUris.contains(request.redirectUri) else {
            return ServerReply(
                status: 400,
                body: AMErrors.oauth(
                    "redirect_uri_mismatch", "The redirection URI provided does not match a pre-registered value."))
        }
        func redirect(_ parameters: [(String, String)]) -> ServerReply {
            let query = parameters.map { "\($0.0)=\(PercentEncoding.escape($0.1))" }.joined(separator: "&")
            return ServerReply(status: 302, headers: ["Location": "\(request.redirectUri)?\(query)"])
        }
        guard request.responseType == "code" else {
            return redirect([
                ("error", "unsupported_response_type"),
                ("error_description", "Response type is not supported: \(request.responseType)"),
                ("state", request.state),
            ])
        }
        // AM's OpenIdConnectAuthorizeRequestValidator: a BadRequestException, which the authorize
        // endpoint sends back to the redirect URI (`AuthorizeResource`, `ExceptionHandler`).
        let prompt = OpenIDPrompt(request.prompt)
        guard prompt.isValid else {
            return redirect([
                ("error", "bad_request"),
                ("error_description", "Prompt parameter \(prompt.original) is invalid or unsupported"),
                ("state", request.state),
            ])
        }
        let scopes = request.scope.split(separator: " ").map(String.init)
        guard !scopes.isEmpty, scopes.allSatisfy(client.scopes.contains) else {
            return ServerReply(status: 400, body: AMErrors.oauth("invalid_scope", "Unknown/invalid scope(s)"))
        }
        // An authorization uses the session: its idle time starts again, as AM's does.
        guard let session = sessions.use(request.ssoToken) else {
            return redirect([
                ("error_description", "The request requires some interaction that is not allowed."),
                ("state", request.state), ("error", "interaction_required"),
            ])
        }
        guard ["S256", "plain"].contains(request.codeChallengeMethod), !request.codeChallenge.isEmpty else {
            return redirect([
                ("error", "invalid_request"), ("error_description", "Invalid code challenge method"),
                ("state", request.state),
            ])
        }
        let code = Base64URL.encode(random.bytes(20))
        codes[code] = AuthorizationCode(
            clientId: client.clientId, redirectUri: request.redirectUri, scopes: scopes,
            challenge: request.codeChallenge, method: request.codeChallengeMethod, session: session,
            expires: clock.now + config.authorizationCodeLifetime, issuer: request.issuer,
            nonce: request.nonce.flatMap { $0.isEmpty ? nil : $0 })
        return redirect([
            ("code", code), ("iss", request.issuer ?? config.issuer), ("state", request.state),
            ("client_id", client.clientId),
        ])
    }

    // MARK: token

    func token(form: [String: String]) -> ServerReply {
        switch form["grant_type"] {
        case "authorization_code": return exchangeCode(form)
        case "refresh_token": return refresh(form)
        case TokenExchange.grantType: return exchangeToken(form)
        case let other?: return invalid("unsupported_grant_type", "Grant type is not supported: \(other)")
        case nil: return invalid("invalid_request", "Missing parameter, 'grant_type'")
        }
    }

    private func invalid(_ error: String, _ description: String) -> ServerReply {
        ServerReply(status: 400, body: AMErrors.oauth(error, description))
    }

    private func exchangeCode(_ form: [String: String]) -> ServerReply {
        guard let codeValue = form["code"], let code = codes.removeValue(forKey: codeValue), clock.now < code.expires
        else {
            return invalid("invalid_grant", "The provided access grant is invalid, expired, or revoked.")
        }
        guard form["client_id"] == code.clientId else {
            return invalid("invalid_client", "Client authentication failed")
        }
        guard form["redirect_uri"] == code.redirectUri else {
            return invalid("invalid_grant", "The redirection URI provided does not match a pre-registered value.")
        }
        guard let verifier = form["code_verifier"], PKCE.challenge(for: verifier, method: code.method) == code.challenge
        else {
            return invalid("invalid_grant", "PKCE verifier does not match the code challenge")
        }
        guard sessions.find(code.session.tokenId) != nil, users.find(id: code.session.userId) != nil else {
            return invalid("invalid_grant", "The provided access grant is invalid, expired, or revoked.")
        }
        let grant = Grant(
            id: random.uuid().lowercased(), clientId: code.clientId, userId: code.session.userId,
            scopes: code.scopes, authTime: code.session.authTime, opsId: code.session.opsId, issuer: code.issuer,
            refreshToken: newRefreshToken(), refreshExpires: clock.now + config.refreshTokenLifetime)
        add(grant)
        return tokenResponse(for: grant, grantType: "authorization_code", includeIdToken: true, nonce: code.nonce)
    }

    private func refresh(_ form: [String: String]) -> ServerReply {
        guard let token = form["refresh_token"] else {
            return invalid("invalid_request", "Missing parameter, 'refresh_token'")
        }
        if retiredRefreshTokens[token] != nil {
            logInfo("embedded AM: a rotated-out refresh token was presented again; refused")
            return invalid("invalid_grant", "grant is invalid")
        }
        guard let grantId = grantByRefreshToken[token], var grant = grants[grantId], clock.now < grant.refreshExpires
        else {
            return invalid("invalid_grant", "grant is invalid")
        }
        guard form["client_id"] == grant.clientId else {
            return invalid("invalid_client", "Client authentication failed")
        }
        if let requested = form["scope"], !requested.isEmpty {
            let scopes = requested.split(separator: " ").map(String.init)
            guard scopes.allSatisfy(grant.scopes.contains) else {
                return invalid("invalid_scope", "Unknown/invalid scope(s)")
            }
        }
        refreshCount += 1
        grantByRefreshToken[token] = nil
        retire(token)
        grant.refreshToken = newRefreshToken()
        grant.refreshExpires = clock.now + config.refreshTokenLifetime
        uses += 1
        grant.lastUsed = uses
        grants[grantId] = grant
        if tracksChanges { changes.grants.insert(grantId) }
        grantByRefreshToken[grant.refreshToken] = grantId
        return tokenResponse(for: grant, grantType: "refresh_token", includeIdToken: grant.scopes.contains("openid"))
    }

    /// RFC 8693: a live access token of ours (the subject) buys a new grant for the same user
    /// and session, with its own refresh token; the subject token stays valid.
    private func exchangeToken(_ form: [String: String]) -> ServerReply {
        guard let subject = form["subject_token"], !subject.isEmpty else {
            return invalid("invalid_request", "Missing parameter, 'subject_token'")
        }
        guard form["subject_token_type"] == TokenExchange.accessTokenType else {
            return invalid(
                "invalid_request",
                "Unsupported subject_token_type: \(form["subject_token_type"] ?? "none"); expected \(TokenExchange.accessTokenType)"
            )
        }
        if let requested = form["requested_token_type"], requested != TokenExchange.accessTokenType {
            return invalid("invalid_request", "Unsupported requested_token_type: \(requested)")
        }
        guard let client = clients.find(form["client_id"]) else {
            return invalid("invalid_client", "Client authentication failed")
        }
        guard let source = validGrant(forAccessToken: subject), users.find(id: source.userId) != nil else {
            return invalid("invalid_grant", "The subject token is invalid, expired or revoked")
        }
        var scopes = source.scopes
        if let requested = form["scope"], !requested.isEmpty {
            scopes = requested.split(separator: " ").map(String.init)
            guard scopes.allSatisfy(source.scopes.contains) else {
                return invalid("invalid_scope", "Unknown/invalid scope(s)")
            }
        }
        let grant = Grant(
            id: random.uuid().lowercased(), clientId: client.clientId, userId: source.userId, scopes: scopes,
            authTime: source.authTime, opsId: source.opsId, issuer: source.issuer, refreshToken: newRefreshToken(),
            refreshExpires: clock.now + config.refreshTokenLifetime)
        add(grant)
        var reply = tokenResponse(
            for: grant, grantType: TokenExchange.grantType, includeIdToken: scopes.contains("openid"))
        if case .object(var body) = reply.body {
            body["issued_token_type"] = .string(TokenExchange.accessTokenType)
            reply.body = .object(body)
        }
        return reply
    }

    private func newRefreshToken() -> String { Base64URL.encode(random.bytes(20)) }

    private func tokenResponse(
        for grant: Grant, grantType: String, includeIdToken: Bool, nonce: String? = nil
    ) -> ServerReply {
        concernedUserId = grant.userId
        let now = clock.now
        let iat = Int64(now)
        let lifetime = Int64(config.accessTokenLifetime)
        let auditTrackingId = random.uuid().lowercased() + "-" + String(random.uniform(1_000_000))
        let jti = Base64URL.encode(random.bytes(16))
        var issued = IssuedTokens.Access(
            jti: jti, header: "", iat: iat, exp: iat + lifetime, grantType: grantType, auditTrackingId: auditTrackingId)
        let accessToken = sign(accessClaims(grant, issued), with: config.accessTokenSigningAlgorithm)
        // Signed here, so it checks out: its first use (userinfo) need not verify it again.
        remember(accessToken, AccessClaims(exp: iat + lifetime, iat: iat, jti: jti, grantId: grant.id))
        // One key signs many tokens with the same header: the records share one copy of it.
        let header = String(accessToken.prefix { $0 != "." })
        if header != lastAccessHeader { lastAccessHeader = header }
        issued.header = lastAccessHeader
        grants[grant.id]?.issued.add(issued)
        var body: JSONObject = [
            "access_token": .string(accessToken), "refresh_token": .string(grant.refreshToken),
            "scope": .string(grant.scopes.joined(separator: " ")),
        ]
        if includeIdToken {
            let idToken = IssuedTokens.ID(
                iat: iat, exp: iat + lifetime, auditTrackingId: auditTrackingId,
                atHash: Base64URL.encode(SHA256.hash(accessToken).prefix(16)), nonce: nonce)
            let algorithm =
                clients.find(grant.clientId)?.idTokenSigningAlgorithm ?? .rs256
            body["id_token"] = .string(sign(idClaims(grant, idToken), with: algorithm))
            grants[grant.id]?.issued.id = idToken
        }
        body["token_type"] = "Bearer"
        // AM reports the lifetime less the second it spent issuing.
        body["expires_in"] = .int(lifetime - 1)
        return ServerReply(status: 200, body: .object(body), headers: ["Cache-Control": "no-store"])
    }

    // MARK: userinfo, revoke, end session

    /// The grant behind a live access token, or nil when it is expired, revoked or not ours.
    func validGrant(forAccessToken token: String) -> Grant? {
        guard let claims = verifiedAccessToken(token), var grant = grants[claims.grantId],
            state(of: claims, in: grant) == .active
        else { return nil }
        // A grant in use is the last to go when the grants must be capped.
        uses += 1
        grant.lastUsed = uses
        grants[claims.grantId] = grant
        concernedUserId = grant.userId
        return grant
    }

    struct AccessClaims {
        var exp: Int64?
        var iat: Int64?
        var jti: String
        var grantId: String
    }

    /// The claims of an access token whose signature checked out. A token never changes, so its
    /// check is remembered; expiry and revocation are still looked at on every use. Verifying
    /// the signature was most of the cost of a userinfo call (docs/performance.md).
    var verified: [String: AccessClaims] = [:]
    /// The header of the last access token signed, shared by the records of the tokens that have it.
    var lastAccessHeader = ""

    func verifiedAccessToken(_ token: String) -> AccessClaims? {
        if let known = verified[token] { return known }
        guard let jwt = verify(token), jwt.claims["tokenName"] == "access_token",
            case .string(let jti)? = jwt.claims["jti"], case .string(let grantId)? = jwt.claims["authGrantId"]
        else { return nil }
        let claims = AccessClaims(
            exp: jwt.claims["exp"]?.intValue, iat: jwt.claims["iat"]?.intValue, jti: jti, grantId: grantId)
        remember(token, claims)
        return claims
    }

    private func remember(_ token: String, _ claims: AccessClaims) {
        // Keyed by the whole token (about a kilobyte signed RS256): 256 of them are plenty for a
        // test's live tokens and keep the cache to a quarter of a megabyte.
        if verified.count >= 256 { verified.removeAll(keepingCapacity: true) }
        verified[token] = claims
    }

    func userInfo(accessToken: String) -> ServerReply {
        guard let grant = validGrant(forAccessToken: accessToken), let user = users.find(id: grant.userId) else {
            return ServerReply(status: 401, body: AMErrors.invalidToken)
        }
        var claims: JSONObject = ["sub": .string(user.id)]
        if grant.scopes.contains("profile") {
            let given = user.givenName ?? ""
            let family = user.familyName ?? ""
            claims["name"] = .string([given, family].filter { !$0.isEmpty }.joined(separator: " "))
            claims["given_name"] = .string(given)
            claims["family_name"] = .string(family)
            claims["preferred_username"] = .string(user.username)
        }
        if grant.scopes.contains("email"), let email = user.email { claims["email"] = .string(email) }
        claims["subname"] = .string(user.id)
        return ServerReply(status: 200, body: .object(claims))
    }

    /// RFC 7009: always 200 for a token we do not know. A refresh token ends its whole grant
    /// (and with it every access token issued under it); an access token ends only itself.
    func revoke(form: [String: String]) -> ServerReply {
        guard let token = form["token"] else { return invalid("invalid_request", "Missing parameter, 'token'") }
        if let grantId = grantByRefreshToken[token] {
            endGrant(grantId)
        } else if let jwt = verify(token), case .string(let jti)? = jwt.claims["jti"] {
            revokedAccessTokens[jti] = Double(jwt.claims["exp"]?.intValue ?? Int64(TimeBounds.latest))
            if tracksChanges { changes.revoked.insert(jti) }
            let now = clock.now
            var remaining = revokedAccessTokens
            revokedPruning.run(&remaining, expired: { $0 <= now }, rank: { $0 })
            if remaining.count < revokedAccessTokens.count {
                if tracksChanges { changes.revoked.formUnion(revokedAccessTokens.keys.filter { remaining[$0] == nil }) }
                revokedAccessTokens = remaining
            }
        }
        return ServerReply(status: 200, body: [:])
    }

    func endSession(idTokenHint: String) -> ServerReply {
        guard let jwt = verify(idTokenHint),
            case .string(let opsId)? = jwt.claims["org.forgerock.openidconnect.ops"]
        else {
            return ServerReply(status: 400, body: AMErrors.oauth("bad_request", "Invalid id_token_hint"))
        }
        if let session = sessions.find(opsId: opsId) { sessions.end(session.tokenId, cause: .endSession) }
        return ServerReply(status: 200, body: [:])
    }

    /// The user an access token of ours was issued to, expired or not; nil for a forged token.
    func userId(ofAccessToken token: String) -> String? {
        guard let jwt = verify(token) else { return nil }
        return jwt.claims["sub"]?.stringValue
    }
}
