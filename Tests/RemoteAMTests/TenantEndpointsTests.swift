import Testing

@testable import RemoteAM

/// Where the OAuth calls go: AM's layout, or what a discovery document names.
@Suite struct TenantEndpointsTests {
    let layout = TenantEndpoints(base: "https://am.example.com/am/", realmPath: "realms/root/realms/alpha")
    let url = "https://am.example.com/am/oauth2/alpha/.well-known/openid-configuration"
    let document: [String: String] = [
        "issuer": "https://am.example.com:443/am/oauth2/alpha",
        "authorization_endpoint": "https://login.example.com/am/oauth2/alpha/authorize",
        "token_endpoint": "https://login.example.com/am/oauth2/alpha/access_token",
        "userinfo_endpoint": "https://login.example.com/am/oauth2/alpha/userinfo",
        "end_session_endpoint": "https://login.example.com/am/oauth2/alpha/connect/endSession",
        "revocation_endpoint": "https://login.example.com/am/oauth2/alpha/token/revoke",
    ]

    func endpoints(_ members: [String: String]) throws(TenantEndpoints.Invalid) -> TenantEndpoints {
        let json =
            "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ")
            + "}"
        return try TenantEndpoints(document: Array(json.utf8), url: url, fallback: layout)
    }

    @Test func aMLayout() {
        #expect(layout.authorize == "https://am.example.com/am/oauth2/realms/root/realms/alpha/authorize")
        #expect(layout.token == "https://am.example.com/am/oauth2/realms/root/realms/alpha/access_token")
        #expect(layout.endSession == "https://am.example.com/am/oauth2/realms/root/realms/alpha/connect/endSession")
        #expect(layout.endSession(at: .forgeRockSignOff) == layout.endSession(at: .endSessionEndpoint))
        #expect(layout.users == "https://am.example.com/am/json/realms/root/realms/alpha/users")
    }

    @Test func documentEndpoints() throws {
        let found = try endpoints(document)
        #expect(found.authorize == document["authorization_endpoint"])
        #expect(found.token == document["token_endpoint"])
        #expect(found.userInfo == document["userinfo_endpoint"])
        #expect(found.revoke == document["revocation_endpoint"])
        #expect(found.users == layout.users, "the document names no device endpoints")
        #expect(found.endSession(at: .endSessionEndpoint) == document["end_session_endpoint"])
        #expect(
            found.endSession(at: .forgeRockSignOff) == document["end_session_endpoint"],
            "no ping_end_idp_session_endpoint")
        #expect(found.introspect == layout.introspect, "no introspection_endpoint: AM's layout")
    }

    @Test func pingEndIdpSessionIsTheForgeRockSignOffAndNotTheOIDCEndSession() throws {
        var members = document
        members["ping_end_idp_session_endpoint"] = "https://login.example.com/am/oauth2/alpha/connect/idpEndSession"
        members["introspection_endpoint"] = "https://login.example.com/am/oauth2/alpha/introspect"
        let found = try endpoints(members)
        #expect(found.endSession(at: .forgeRockSignOff) == members["ping_end_idp_session_endpoint"])
        #expect(found.endSession(at: .endSessionEndpoint) == members["end_session_endpoint"])
        #expect(found.introspect == members["introspection_endpoint"])
    }

    @Test func eachRequiredEndpointIsNamedWhenMissing() {
        for key in [
            "authorization_endpoint", "token_endpoint", "userinfo_endpoint", "end_session_endpoint",
            "revocation_endpoint",
        ] {
            var members = document
            members[key] = nil
            let error = #expect(throws: TenantEndpoints.Invalid.self) { try endpoints(members) }
            #expect(error?.message == "the discovery document \(url) has no \(key): the SDK cannot start without it")
        }
    }

    @Test func notAURL() {
        var members = document
        members["token_endpoint"] = "/am/oauth2/alpha/access_token"
        let error = #expect(throws: TenantEndpoints.Invalid.self) { try endpoints(members) }
        #expect(
            error?.message
                == #"the discovery document \#(url): token_endpoint must be an http(s) URL, got "/am/oauth2/alpha/access_token""#
        )
    }

    @Test func overridesAsBothSDKsResolveThem() {
        let found = TenantEndpoints(
            base: "https://am.example.com/am/", realmPath: "realms/root/realms/alpha",
            overrides: [
                .authenticate: "/json/realms/alpha/authenticate", .session: "json/realms/alpha/sessions",
                .token: "https://gateway.example.com/token", .userinfo: "//oauth2/userinfo",
            ])
        #expect(found.authenticate == "https://am.example.com/am/json/realms/alpha/authenticate")
        #expect(found.sessions == "https://am.example.com/am/json/realms/alpha/sessions")
        #expect(found.token == "https://gateway.example.com/token", "an absolute URL is taken as it is")
        #expect(
            found.userInfo == "https://am.example.com/am/oauth2/userinfo",
            "leading slashes trimmed, as Android trims them")
        #expect(found.authorize == layout.authorize, "what the app does not override is AM's layout")
        #expect(layout.authenticate == "https://am.example.com/am/json/realms/root/realms/alpha/authenticate")
        #expect(layout.sessions == "https://am.example.com/am/json/realms/root/realms/alpha/sessions")
    }

    @Test func discoveryReplacesTheOAuthOverridesOnly() throws {
        let overridden = TenantEndpoints(
            base: "https://am.example.com/am/", realmPath: "realms/root/realms/alpha",
            overrides: [.token: "/custom/token", .authenticate: "/custom/authenticate"])
        let json =
            "{" + document.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ")
            + "}"
        let found = try TenantEndpoints(document: Array(json.utf8), url: url, fallback: overridden)
        #expect(found.token == document["token_endpoint"], "FROptions.discover replaces the token override")
        #expect(
            found.authenticate == "https://am.example.com/am/custom/authenticate", "the document names no authenticate")
        #expect(found.sessions == layout.sessions)
    }
}
