/// What the REST face needs to know of the server behind it: where it is served, its realm,
/// cookie and clients (for discovery and redirects), and which browser origins may call it.
public struct AMHTTPConfig: Sendable {
    public struct Client: Sendable {
        public var clientId: String
        public var redirectUris: [String]
        /// Where `/connect/endSession` may send the browser: a list of its own, as AM keeps.
        public var postLogoutRedirectUris: [String]

        public init(clientId: String, redirectUris: [String], postLogoutRedirectUris: [String] = []) {
            self.clientId = clientId
            self.redirectUris = redirectUris
            self.postLogoutRedirectUris = postLogoutRedirectUris
        }
    }

    /// `http://127.0.0.1:8080/am`: what discovery advertises.
    public var baseURL: String
    /// The `iss` of the tokens the server signs (discovery must report the same).
    public var issuer: String
    public var realm: String
    public var cookieName: String
    public var clients: [Client]
    public var scopes: [String]
    /// Browser origins allowed to call with credentials (CORS); `*` allows any.
    public var corsOrigins: [String]

    public init(
        baseURL: String, issuer: String, realm: String, cookieName: String, clients: [Client], scopes: [String],
        corsOrigins: [String] = []
    ) {
        self.baseURL = baseURL
        self.issuer = issuer
        self.realm = realm
        self.cookieName = cookieName
        self.clients = clients
        self.scopes = scopes
        self.corsOrigins = corsOrigins
    }

    public var realmPath: String { "/\(realm)" }
    /// `…/oauth2/realms/root/realms/<realm>`: the long form AM serves its OAuth endpoints under.
    var oauthBase: String { "\(baseURL)/oauth2/realms/root/realms/\(realm)" }
}
