import AuthBridgeCore
import IdentityServer

/// What a newcomer gets with no flags (docs/quickstart.md).
public struct EmbeddedAMConfig: Sendable {
    public struct OAuthClient: Sendable {
        public var clientId: String
        public var redirectUris: [String]
        /// AM's "Post Logout Redirect URIs" of the client, a list of its own: where
        /// `/connect/endSession` may send the browser (`post_logout_redirect_uri`, exact match).
        public var postLogoutRedirectUris: [String]
        public var scopes: [String]
        /// AM's client setting "ID Token Signing Algorithm" (`idTokenSignedResponseAlg`, RS256
        /// unless set): what this client's id tokens are signed with.
        public var idTokenSigningAlgorithm: TokenSigningAlgorithm

        public init(
            clientId: String, redirectUris: [String], postLogoutRedirectUris: [String] = [], scopes: [String],
            idTokenSigningAlgorithm: TokenSigningAlgorithm = .rs256
        ) {
            self.clientId = clientId
            self.redirectUris = redirectUris
            self.postLogoutRedirectUris = postLogoutRedirectUris
            self.scopes = scopes
            self.idTokenSigningAlgorithm = idTokenSigningAlgorithm
        }
    }

    public struct DemoUser: Sendable {
        public var username: String
        public var password: String
        public var givenName: String
        public var familyName: String
        public var email: String
        public var telephoneNumber: String
    }

    /// An agent identity of the realm (AM's `IdType.AGENT`, as a web or Java agent profile holds
    /// it): what the Agent Data Store Decision node checks, apart from the users.
    public struct Agent: Sendable {
        public var name: String
        public var password: String

        public init(name: String, password: String) {
            self.name = name
            self.password = password
        }
    }

    public var realm = "alpha"
    public var cookieName = "iPlanetDirectoryPro"
    public var baseURL = "http://localhost:8080/am"
    public var clients = [
        OAuthClient(
            clientId: "ReactNativeOAuthClient",
            redirectUris: ["https://com.example.reactnative.todo/callback"],
            // Empty, as AM's setting is by default: the SDKs send a post_logout_redirect_uri only
            // when the app asks for a redirect, and the app registers it then (docs/http.md).
            postLogoutRedirectUris: [],
            scopes: ["openid", "profile", "email", "address", "phone"])
    ]
    public var accessTokenLifetime: Double = 3600
    /// AM's provider setting "OAuth2 Token Signing Algorithm" for its stateless access tokens.
    /// AM defaults to HS256, a secret no resource server holds; RS256 here, so a backend can
    /// verify the tokens by the JWKS as it would against a tenant configured for that
    /// (docs/http.md, "Signing keys").
    public var accessTokenSigningAlgorithm: TokenSigningAlgorithm = .rs256
    public var refreshTokenLifetime: Double = 604_800
    public var authorizationCodeLifetime: Double = 120
    /// PBKDF2 rounds for stored passwords. Kept modest: this directory holds test users, and
    /// test suites log in thousands of times.
    public var passwordHashIterations = 64
    /// How many of each thing that grows with traffic the server keeps at most (journeys in
    /// progress, suspended journeys, OAuth grants, rotated-out refresh tokens, SSO sessions): past it the least
    /// recently used go, so memory stays bounded even when the virtual clock stands still.
    public var retentionCap = 2_000
    /// AM's session service: "Maximum Session Time" and "Maximum Idle Time", in seconds here
    /// (AM's own defaults, 120 and 30 minutes; `--max-session-time`, `--max-idle-time`).
    public var maxSessionTime: Double = 120 * 60
    public var maxIdleTime: Double = 30 * 60
    public var demoUser: DemoUser? = DemoUser(
        username: "demo", password: "Ch4ng3it!", givenName: "Demo", familyName: "User",
        email: "demo@example.com", telephoneNumber: "+15555550100")
    /// The realm's agents (docs/journeys.md, "Other platform nodes"): one test agent.
    public var agents = [Agent(name: "web-agent", password: "Ch4ng3it!")]
    /// The test accounts signed in on the emulated Google, Apple and Facebook (docs/journeys.md,
    /// "Social sign-in"); nil for a provider leaves it without one.
    public var socialAccounts = SocialTestAccounts()

    public init() {}

    /// SSO sessions' lifetimes and cap (`retentionCap`, as the other collections).
    public var sessionLimits: SessionLimits {
        SessionLimits(maxSessionTime: maxSessionTime, maxIdleTime: maxIdleTime, cap: retentionCap)
    }

    /// `https://…/am/oauth2/realms/root/realms/alpha`, the long form AM reports as `iss`.
    public var issuer: String { "\(baseURL)/oauth2/realms/root/realms/\(realm)" }
    public var realmPath: String { "/\(realm)" }
    /// Where a success sends the user when no node set a URL: the realm's end-user page.
    public var defaultSuccessUrl: String { "/enduser/?realm=\(realmPath)" }
}
