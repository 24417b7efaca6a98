import AuthBridgeCore

/// Where the OAuth 2.0 / OIDC calls go: AM's path layout under the server URL and realm, or the
/// tenant's `.well-known/openid-configuration` when the app gives a discovery URL, as the SDKs
/// read it (the Ping SDK's `OpenIdConfiguration`, the ForgeRock iOS SDK's `FROptions.discover`).
/// The journey and session calls are not in the document (it names no `authenticate` or
/// `sessions`): they stay under the server URL and realm, as in both SDKs.
struct OAuthEndpoints: Equatable {
    var authorize: String
    var token: String
    var userInfo: String
    var revoke: String
    var endSession: String
    var introspect: String

    /// AM's own layout: `<url>/oauth2/realms/root/realms/<realm>/…`.
    init(base: String, realmPath: String) {
        let oauth = "\(base)oauth2/\(realmPath)"
        authorize = "\(oauth)/authorize"
        token = "\(oauth)/access_token"
        userInfo = "\(oauth)/userinfo"
        revoke = "\(oauth)/token/revoke"
        endSession = "\(oauth)/connect/endSession"
        introspect = "\(oauth)/introspect"
    }

    struct Invalid: Error, Equatable {
        let message: String
    }

    /// The endpoints a discovery document names; the five the Ping SDK's `OpenIdConfiguration`
    /// cannot decode without are required. Sign-off goes to `ping_end_idp_session_endpoint`
    /// when the document has one, else `end_session_endpoint`: the ForgeRock iOS SDK's choice
    /// without a sign-out redirect URI, and the JavaScript SDK's. `introspection_endpoint` is
    /// optional (no SDK reads it); without it introspection keeps AM's layout.
    init(document bytes: [UInt8], url: String, fallback: OAuthEndpoints) throws(Invalid) {
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(bytes)
        } catch {
            throw Invalid(message: "the discovery document \(url) is not JSON (\(error)): is it an OpenID Provider's .well-known/openid-configuration?")
        }
        guard case .object(let document) = parsed else {
            throw Invalid(message: "the discovery document \(url) is not a JSON object")
        }
        func endpoint(_ key: String) throws(Invalid) -> String? {
            switch document[key] {
            case nil, .null?: return nil
            case .string(let text)? where text.lowercased().hasPrefix("https://") || text.lowercased().hasPrefix("http://"):
                return text
            case let value?:
                throw Invalid(message: "the discovery document \(url): \(key) must be an http(s) URL, got \(JSONWriter().string(value))")
            }
        }
        func required(_ key: String) throws(Invalid) -> String {
            guard let value = try endpoint(key) else {
                throw Invalid(message: "the discovery document \(url) has no \(key): the SDK cannot start without it")
            }
            return value
        }
        authorize = try required("authorization_endpoint")
        token = try required("token_endpoint")
        userInfo = try required("userinfo_endpoint")
        revoke = try required("revocation_endpoint")
        let endSession = try required("end_session_endpoint")
        self.endSession = try endpoint("ping_end_idp_session_endpoint") ?? endSession
        introspect = try endpoint("introspection_endpoint") ?? fallback.introspect
    }
}
