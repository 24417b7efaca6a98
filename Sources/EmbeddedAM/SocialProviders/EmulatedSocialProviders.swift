import AuthBridgeCore
import IdentityServer

/// A test account signed in on an emulated provider: what its ID token or profile says.
public struct SocialTestAccount: Sendable, Equatable {
    public var subject: String
    public var email: String
    public var givenName: String
    public var familyName: String
    public var picture: String

    public init(subject: String, email: String, givenName: String, familyName: String, picture: String = "") {
        self.subject = subject
        self.email = email
        self.givenName = givenName
        self.familyName = familyName
        self.picture = picture
    }

    public var name: String { [givenName, familyName].filter { !$0.isEmpty }.joined(separator: " ") }
}

/// The accounts signed in on the emulated Google, Apple and Facebook (`EmbeddedAMConfig.socialAccounts`).
/// By default a new person on Google and Apple, and on Facebook the demo user's e-mail, so a
/// Facebook sign-in links to the existing demo account.
public struct SocialTestAccounts: Sendable {
    public var google: SocialTestAccount? = SocialTestAccount(
        subject: "110169484474386276334", email: "sam.social@gmail.com", givenName: "Sam", familyName: "Social",
        picture: "https://lh3.googleusercontent.com/a/sam-social")
    public var apple: SocialTestAccount? = SocialTestAccount(
        subject: "001234.8f4bd0c7e2a94c1db2f6a3e5c7d9b1a0.1207", email: "sam.social@privaterelay.appleid.com",
        givenName: "Sam", familyName: "Social")
    public var facebook: SocialTestAccount? = SocialTestAccount(
        subject: "10160987654321098", email: "demo@example.com", givenName: "Demo", familyName: "User",
        picture: "https://graph.facebook.com/10160987654321098/picture")

    public init() {}

    public subscript(kind: SocialProviderKind) -> SocialTestAccount? {
        switch kind {
        case .google: google
        case .apple: apple
        case .facebook: facebook
        }
    }
}

/// The emulated external identity providers: Google, Apple and Facebook as their native SDKs and
/// AM see them. The app's SDK signs in (`signIn`, the `SocialSignIn` seam) and gets what the real
/// SDK hands the app; AM's Social Provider Handler reaches them only at their public URLs: the
/// JWKS that verifies an ID token and Facebook's Graph `me` for an access token (`get`), Apple's
/// token endpoint for an authorization code (`post`).
///
/// They keep no state: every token and code is signed and carries what it stands for, and each provider's
/// key is derived from its name, so a seeded run repeats and a restart verifies earlier tokens.
/// Google and Apple sign their ID tokens with RS256; AuthBridge's crypto signs only ES256 (P-256),
/// so the emulated ones sign ES256 and publish an EC key in their JWKS, which OIDC allows
/// (`id_token_signing_alg_values_supported`). An AM that checks a real provider's RSA key would
/// refuse them, as it should.
public final class EmulatedSocialProviders: SocialSignIn {
    /// Each provider's public addresses, as AM's social provider configs name them.
    struct Endpoints {
        var issuer: String
        var jwks: String?
        var userInfo: String?
        var token: String?
    }

    static func endpoints(_ kind: SocialProviderKind) -> Endpoints {
        switch kind {
        case .google:
            Endpoints(
                issuer: "https://accounts.google.com", jwks: "https://www.googleapis.com/oauth2/v3/certs",
                userInfo: nil)
        case .apple:
            Endpoints(
                issuer: "https://appleid.apple.com", jwks: "https://appleid.apple.com/auth/keys",
                token: "https://appleid.apple.com/auth/token")
        case .facebook: Endpoints(issuer: "https://www.facebook.com", userInfo: "https://graph.facebook.com/me")
        }
    }

    /// How long an issued token is good for (Google's and Facebook's short-lived tokens: an hour).
    static let lifetime: Double = 3600

    let accounts: SocialTestAccounts
    let clock: Clock
    // Static lets: made on first use (a key's public point is a scalar multiplication), not at
    // every start.
    private static let googleKey = key(.google)
    private static let appleKey = key(.apple)
    private static let facebookKey = key(.facebook)
    private var appleKey: P256.PrivateKey { Self.appleKey }
    private var facebookKey: P256.PrivateKey { Self.facebookKey }

    init(accounts: SocialTestAccounts, clock: Clock) {
        self.accounts = accounts
        self.clock = clock
    }

    private func key(_ kind: SocialProviderKind) -> P256.PrivateKey {
        switch kind {
        case .google: Self.googleKey
        case .apple: Self.appleKey
        case .facebook: Self.facebookKey
        }
    }

    /// A fixed key per provider: the hash of its name, hashed again in the (2⁻³² likely) case it
    /// is not a valid scalar. Test keys, public by construction.
    private static func key(_ kind: SocialProviderKind) -> P256.PrivateKey {
        var seed = SHA256.hash("AuthBridge emulated \(kind.rawValue) signing key")
        while true {
            if let key = try? P256.PrivateKey(rawRepresentation: seed) { return key }
            seed = SHA256.hash(seed)
        }
    }

    static func keyId(_ kind: SocialProviderKind) -> String { "\(kind.rawValue)-emulated-1" }

    // MARK: the app's side (the provider SDKs)

    public func signIn(_ request: SocialSignInRequest) throws(SocialSignInError) -> SocialCredential {
        guard !request.clientId.isEmpty else { throw .missingClientId }
        guard let account = accounts[request.kind] else { throw .noAccount(request.kind) }
        let now = Int64(clock.now)
        switch request.kind {
        case .google:
            var claims: JSONObject = [
                "iss": .string(Self.endpoints(.google).issuer), "azp": .string(request.clientId),
                "aud": .string(request.clientId), "sub": .string(account.subject), "email": .string(account.email),
                "email_verified": true,
            ]
            if !request.nonce.isEmpty { claims["nonce"] = .string(request.nonce) }
            claims["name"] = .string(account.name)
            claims["picture"] = .string(account.picture)
            claims["given_name"] = .string(account.givenName)
            claims["family_name"] = .string(account.familyName)
            claims["iat"] = .int(now)
            claims["exp"] = .int(now + Int64(Self.lifetime))
            return SocialCredential(idToken: sign(claims, .google))
        case .apple:
            var claims: JSONObject = [
                "iss": .string(Self.endpoints(.apple).issuer), "aud": .string(request.clientId),
                "exp": .int(now + Int64(Self.lifetime)), "iat": .int(now), "sub": .string(account.subject),
            ]
            if !request.nonce.isEmpty { claims["nonce"] = .string(request.nonce) }
            claims["email"] = .string(account.email)
            claims["email_verified"] = true
            claims["auth_time"] = .int(now)
            claims["nonce_supported"] = true
            let idToken = sign(claims, .apple)
            // Redeemable once at the token endpoint within five minutes (Apple's codes: one use, five
            // minutes): kept stateless, it is signed and carries the ID token it stands for.
            let code = sign(
                ["id_token": .string(idToken), "client_id": .string(request.clientId), "exp": .int(now + 300)], .apple)
            let user: JSONValue = [
                "email": .string(account.email),
                "name": ["firstName": .string(account.givenName), "lastName": .string(account.familyName)],
            ]
            return SocialCredential(idToken: idToken, authorizationCode: code, user: user)
        case .facebook:
            let claims: JSONObject = [
                "sub": .string(account.subject), "app": .string(request.clientId),
                "scopes": .array(request.scopes.map { .string($0) }), "iat": .int(now),
                "exp": .int(now + Int64(Self.lifetime)),
            ]
            return SocialCredential(accessToken: sign(claims, .facebook))
        }
    }

    private func sign(_ claims: JSONObject, _ kind: SocialProviderKind) -> String {
        JWS.sign(
            payload: JSONWriter().bytes(.object(claims)),
            header: ["alg": "ES256", "kid": .string(Self.keyId(kind)), "typ": "JWT"], key: .p256(key(kind)))
    }

    // MARK: AM's side (the providers' public URLs)

    /// A GET of one of the providers' public URLs (query ignored), with an access token when the
    /// call carries one: a JWKS (200), Graph's `me` (200, or 400 with Graph's OAuthException for
    /// a bad token), or 404 for any other address.
    func get(_ url: String, bearer: String?) -> ServerReply {
        let path = String(url.prefix { $0 != "?" })
        for kind in SocialProviderKind.allCases {
            let endpoints = Self.endpoints(kind)
            if path == endpoints.jwks {
                var jwk = JWK(key: .p256(key(kind).publicKey), keyID: Self.keyId(kind)).json
                jwk["use"] = "sig"
                jwk["alg"] = "ES256"
                return ServerReply(status: 200, body: ["keys": [.object(jwk)]])
            }
            if path == endpoints.userInfo { return graphMe(bearer: bearer) }
        }
        return ServerReply(status: 404, body: ["error": "not_found"])
    }

    /// A POST of a form to a provider's token endpoint: Apple's `auth/token` redeems an
    /// authorization code (`grant_type=authorization_code`, `code`, `client_id`) for its ID token;
    /// anything else is Apple's `invalid_grant` (400), another address 404.
    func post(_ url: String, form: [String: String]) -> ServerReply {
        guard url == Self.endpoints(.apple).token else { return ServerReply(status: 404, body: ["error": "not_found"]) }
        guard form["grant_type"] == "authorization_code", let code = form["code"],
            let verified = try? JWS.verify(code, allowed: [.es256], key: .p256(appleKey.publicKey)),
            case .object(let claims)? = try? JSONParser.parse(verified.payload),
            let exp = claims["exp"]?.doubleValue, clock.now < exp,
            claims["client_id"]?.stringValue == form["client_id"], let idToken = claims["id_token"]?.stringValue
        else { return ServerReply(status: 400, body: ["error": "invalid_grant"]) }
        return ServerReply(
            status: 200,
            body: [
                "access_token": .string(Base64URL.encode(SHA256.hash(code))), "token_type": "Bearer",
                "expires_in": 3600, "id_token": .string(idToken),
            ])
    }

    /// Facebook's `GET /me?fields=…`: the account behind a valid access token.
    private func graphMe(bearer: String?) -> ServerReply {
        let refused = ServerReply(
            status: 400,
            body: [
                "error": [
                    "message": "Invalid OAuth access token - Cannot parse access token", "type": "OAuthException",
                    "code": 190,
                ]
            ])
        guard let bearer,
            let verified = try? JWS.verify(bearer, allowed: [.es256], key: .p256(facebookKey.publicKey)),
            case .object(let claims)? = try? JSONParser.parse(verified.payload),
            let exp = claims["exp"]?.doubleValue, clock.now < exp,
            let account = accounts.facebook, claims["sub"]?.stringValue == account.subject
        else { return refused }
        return ServerReply(
            status: 200,
            body: [
                "id": .string(account.subject), "name": .string(account.name), "email": .string(account.email),
                "first_name": .string(account.givenName), "last_name": .string(account.familyName),
                "picture": ["data": ["url": .string(account.picture)]],
            ])
    }
}
