/// Where a real AM / Identity Cloud tenant is and how the app talks to it: the values of the
/// app's own configuration (FRAuthConfig.plist, strings.xml, FROptions or flags). It lives here,
/// Foundation-free, so the Host can describe a remote server (`daemon.hello`, the SDK's options)
/// without linking the HTTP client that talks to it.
public struct RemoteServerSettings: Equatable, Sendable {
    /// The AM base URL, `https://tenant.example.com/am` (no trailing slash).
    public var url: String
    public var realm: String
    public var cookieName = "iPlanetDirectoryPro"
    public var oauthClientId: String
    public var oauthRedirectUri: String
    public var oauthScope = "openid profile email"
    /// Seconds before expiry at which the SDK refreshes (`forgerock_oauth_threshold`).
    public var oauthThreshold: Double = 60
    public var authServiceName: String?
    public var registrationServiceName: String?
    /// Seconds an HTTP exchange may take (`forgerock_timeout`, the SDKs' default 60).
    public var timeout: Double = 60
    /// Bytes one reply of the tenant may hold, header lines and body (`--max-reply-bytes`): AM's
    /// replies are a few KiB, and a larger one is dropped before it is held whole.
    public var maxReplyBytes = RemoteServerSettings.defaultMaxReplyBytes
    public static let defaultMaxReplyBytes = 4 * 1024 * 1024
    /// Skip TLS certificate verification (`--insecure`, a local AM with a self-signed certificate).
    public var insecure = false
    /// PEM CA certificates to trust instead of the system store (`--ca-file`, an AM with its own CA).
    public var caFile: String?
    /// The tenant's `.well-known/openid-configuration` (FROptions' `discoveryEndpoint`,
    /// `--discovery`): where the OAuth endpoints are read from instead of AM's path layout.
    public var discoveryURL: String?
    /// The app's own endpoint overrides (FRAuthConfig.plist's and strings.xml's
    /// `forgerock_token_endpoint`, FROptions' `tokenEndpoint`, …), as given: an absolute http(s)
    /// URL, or a path under `url`. Where none is given the endpoint is AM's layout.
    public var endpoints: [Endpoint: String] = [:]
    /// Where these values came from (a file, or "flags"): named in start errors.
    public var source = "flags"

    public init(url: String, realm: String, oauthClientId: String, oauthRedirectUri: String) {
        self.url = url
        self.realm = realm
        self.oauthClientId = oauthClientId
        self.oauthRedirectUri = oauthRedirectUri
    }

    /// AM's realm path segment: `realms/root` for the root realm, else `realms/root/realms/<r>`.
    public var realmPath: String {
        realm == "root" || realm == "/" ? "realms/root" : "realms/root/realms/\(realm)"
    }
}

extension RemoteServerSettings {
    /// The endpoints an app may override, named as the SDKs' FROptions properties name them (iOS
    /// `FRAuth/FRAuth/Config/FROptions.swift`, Android `FROptions.kt`'s `UrlPath`).
    public enum Endpoint: String, CaseIterable, Sendable {
        case authenticate = "authenticateEndpoint"
        case authorize = "authorizeEndpoint"
        case token = "tokenEndpoint"
        case revoke = "revokeEndpoint"
        case userinfo = "userinfoEndpoint"
        case session = "sessionEndpoint"
        case endSession = "endSessionEndpoint"

        /// The plist / strings.xml key: `forgerock_token_endpoint`, `forgerock_endsession_endpoint`, …
        public var configKey: String { "forgerock_\(rawValue.dropLast("Endpoint".count).lowercased())_endpoint" }
    }
}
