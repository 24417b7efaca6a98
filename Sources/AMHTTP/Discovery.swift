import AuthBridgeCore
import HTTPServer
import IdentityServer

/// What a client reads before it starts: OIDC discovery, the signing keys, AM's server info.
extension AMRoutes {
    func wellKnown() -> HTTPResponse {
        let base = config.oauthBase
        let document: JSONValue = [
            "issuer": .string(config.issuer),
            "authorization_endpoint": .string("\(base)/authorize"),
            "token_endpoint": .string("\(base)/access_token"),
            "userinfo_endpoint": .string("\(base)/userinfo"),
            "revocation_endpoint": .string("\(base)/token/revoke"),
            "introspection_endpoint": .string("\(base)/introspect"),
            "end_session_endpoint": .string("\(base)/connect/endSession"),
            "jwks_uri": .string("\(base)/connect/jwk_uri"),
            "response_types_supported": ["code"],
            "response_modes_supported": ["query", "form_post"],
            "grant_types_supported": [
                "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:token-exchange",
            ],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": .array(
                TokenSigningAlgorithm.allCases.map { .string($0.rawValue) }),
            "scopes_supported": .array(config.scopes.map { .string($0) }),
            "code_challenge_methods_supported": ["S256", "plain"],
            "token_endpoint_auth_methods_supported": ["none"],
            "claims_supported": ["sub", "subname", "name", "given_name", "family_name", "preferred_username", "email"],
        ]
        return AMResponse.json(200, document)
    }

    /// The server's public signing keys (RS256, ES256, PS256 with their `kid`s), for clients
    /// and resource servers that verify its tokens (docs/http.md, "Signing keys").
    func jwks() throws(TransportError) -> HTTPResponse { AMResponse.from(try server.jwks()) }

    /// `GET …/json/serverinfo/*`: the cookie name a client must use, as AM reports it.
    func serverInfo() -> HTTPResponse {
        AMResponse.json(
            200,
            [
                "cookieName": .string(config.cookieName), "domains": [], "realm": .string(config.realmPath),
                "secureCookie": false,
                "zeroPageLogin": ["enabled": false, "refererWhitelist": [], "allowedWithoutReferer": true],
            ], headers: [APIVersion.header("1.1")])
    }
}
