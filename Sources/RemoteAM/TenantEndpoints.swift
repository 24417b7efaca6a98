import AuthBridgeCore
import IdentityServer

/// Where each call goes. AM's path layout under the server URL and realm by default; the app's
/// own overrides on top (`forgerock_token_endpoint`, FROptions' `tokenEndpoint`, …: an absolute
/// URL as it is, a path under the server URL, as both SDKs resolve them); and with a discovery URL
/// the tenant's `.well-known/openid-configuration` for the OAuth endpoints, as the SDKs read it
/// (the Ping SDK's `OpenIdConfiguration`, the ForgeRock iOS SDK's `FROptions.discover`, which
/// replaces the five OAuth overrides with the document's). The document names no `authenticate`
/// or `sessions`: those stay the layout's or the app's, as in both SDKs.
struct TenantEndpoints: Equatable {
    var authenticate: String
    var sessions: String
    var authorize: String
    var token: String
    var userInfo: String
    var revoke: String
    /// `end_session_endpoint` (or the app's override, or AM's layout).
    var endSession: String
    /// The ForgeRock SDK's sign-off: `ping_end_idp_session_endpoint` when discovery lists one,
    /// else the same as `endSession`.
    var signOff: String
    var introspect: String
    /// The tenant's JWK set: `jwks_uri` of its discovery, AM's layout otherwise.
    var jwks: String
    /// `json/<realm>/users`: each user's devices are under it (`<user>/devices/2fa/<kind>`).
    var users: String
    /// AM's push device endpoint (`…/push/sns/message`), where an authenticator app answers.
    var pushMessage: String

    typealias Overrides = [RemoteServerSettings.Endpoint: String]

    /// AM's own layout, `<url>/json/realms/root/realms/<realm>/…` and `<url>/oauth2/realms/…/…`,
    /// where the app overrides nothing. `base` ends with `/`.
    init(base: String, realmPath: String, overrides: Overrides = [:]) {
        func place(_ endpoint: RemoteServerSettings.Endpoint, _ layout: String) -> String {
            guard let given = overrides[endpoint] else { return base + layout }
            let lowered = given.lowercased()
            if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") { return given }
            return base + given.drop { $0 == "/" }
        }
        let oauth = "oauth2/\(realmPath)"
        authenticate = place(.authenticate, "json/\(realmPath)/authenticate")
        sessions = place(.session, "json/\(realmPath)/sessions")
        authorize = place(.authorize, "\(oauth)/authorize")
        token = place(.token, "\(oauth)/access_token")
        userInfo = place(.userinfo, "\(oauth)/userinfo")
        revoke = place(.revoke, "\(oauth)/token/revoke")
        endSession = place(.endSession, "\(oauth)/connect/endSession")
        signOff = endSession
        introspect = base + "\(oauth)/introspect"
        jwks = base + "\(oauth)/connect/jwk_uri"
        users = base + "json/\(realmPath)/users"
        pushMessage = base + "json/\(realmPath)/push/sns/message"
    }

    /// The overrides a discovery document replaces.
    static let discovered: [RemoteServerSettings.Endpoint] = [.authorize, .token, .userinfo, .revoke, .endSession]

    struct Invalid: Error, Equatable {
        let message: String
    }

    /// The endpoints a discovery document names; the five the Ping SDK's `OpenIdConfiguration`
    /// cannot decode without are required. The ForgeRock SDK's sign-off goes to
    /// `ping_end_idp_session_endpoint` when the document has one, else `end_session_endpoint`
    /// (the ForgeRock iOS SDK's choice without a sign-out redirect URI, and the JavaScript
    /// SDK's); the Ping SDK's OIDC client always goes to `end_session_endpoint`.
    /// `introspection_endpoint` is optional (no SDK reads it); without it introspection keeps
    /// AM's layout.
    init(document bytes: [UInt8], url: String, fallback: TenantEndpoints) throws(Invalid) {
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(bytes)
        } catch {
            throw Invalid(
                message:
                    "the discovery document \(url) is not JSON (\(error)): is it an OpenID Provider's .well-known/openid-configuration?"
            )
        }
        guard case .object(let document) = parsed else {
            throw Invalid(message: "the discovery document \(url) is not a JSON object")
        }
        func endpoint(_ key: String) throws(Invalid) -> String? {
            switch document[key] {
            case nil, .null?: return nil
            case .string(let text)?
            where text.lowercased().hasPrefix("https://") || text.lowercased().hasPrefix("http://"):
                return text
            case let value?:
                throw Invalid(
                    message:
                        "the discovery document \(url): \(key) must be an http(s) URL, got \(JSONWriter().string(value))"
                )
            }
        }
        func required(_ key: String) throws(Invalid) -> String {
            guard let value = try endpoint(key) else {
                throw Invalid(message: "the discovery document \(url) has no \(key): the SDK cannot start without it")
            }
            return value
        }
        authenticate = fallback.authenticate
        sessions = fallback.sessions
        users = fallback.users
        authorize = try required("authorization_endpoint")
        token = try required("token_endpoint")
        userInfo = try required("userinfo_endpoint")
        revoke = try required("revocation_endpoint")
        endSession = try required("end_session_endpoint")
        signOff = try endpoint("ping_end_idp_session_endpoint") ?? endSession
        introspect = try endpoint("introspection_endpoint") ?? fallback.introspect
        jwks = try endpoint("jwks_uri") ?? fallback.jwks
        pushMessage = fallback.pushMessage
    }

    /// Where an end session of `kind` goes.
    func endSession(at kind: EndSessionEndpoint) -> String {
        switch kind {
        case .forgeRockSignOff: return signOff
        case .endSessionEndpoint: return endSession
        }
    }
}
