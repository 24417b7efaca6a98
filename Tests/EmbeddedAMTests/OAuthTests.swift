import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import Testing

@Suite struct OAuthFlow {
    @Test func codeExchangeGivesAMShapedTokens() throws {
        let harness = Harness()
        let reply = harness.tokens(ssoToken: harness.ssoToken()!)
        #expect(reply.status == 200)
        #expect(
            reply.body.objectValue?.keys == [
                "access_token", "refresh_token", "scope", "id_token", "token_type", "expires_in",
            ])
        #expect(reply.body["token_type"] == "Bearer")
        #expect(reply.body["expires_in"] == 3599)
        let parts = reply.body["access_token"]!.stringValue!.split(separator: ".")
        let claims = try JSONParser.parse(Base64URL.decode(String(parts[1]))!)
        #expect(claims["tokenName"] == "access_token")
        #expect(claims["scope"] == ["openid", "profile", "email"])
        #expect(claims["realm"] == "/alpha")
        #expect(claims["exp"]?.intValue == Int64(harness.clock.now) + 3600)
        let id = try JSONParser.parse(
            Base64URL.decode(String(reply.body["id_token"]!.stringValue!.split(separator: ".")[1]))!)
        #expect(id["tokenName"] == "id_token")
        #expect(id["aud"] == "ReactNativeOAuthClient")
        let expectedAtHash = Base64URL.encode(SHA256.hash(reply.body["access_token"]!.stringValue!).prefix(16))
        #expect(id["at_hash"] == .string(expectedAtHash))
    }

    /// OpenID Connect Core §3.1.2.1: the authorize request's nonce comes back in the code's ID
    /// token; none without one, and none in a refreshed ID token (§12.2).
    @Test func theAuthorizeRequestsNonceIsTheIdTokensNonce() throws {
        let harness = Harness()
        func idClaims(_ reply: ServerReply) throws -> JSONValue {
            let token = try #require(reply.body["id_token"]?.stringValue)
            return try JSONParser.parse(Base64URL.decode(String(token.split(separator: ".")[1])) ?? [])
        }
        let withNonce = harness.tokens(ssoToken: harness.ssoToken()!, nonce: "n-0S6_WzA2Mj")
        #expect(try idClaims(withNonce)["nonce"] == "n-0S6_WzA2Mj")
        #expect(try idClaims(harness.tokens(ssoToken: harness.ssoToken()!))["nonce"] == nil)
        #expect(try idClaims(harness.tokens(ssoToken: harness.ssoToken()!, nonce: ""))["nonce"] == nil)
        let refreshed = harness.am.token(form: [
            "grant_type": "refresh_token", "refresh_token": withNonce.body["refresh_token"]?.stringValue ?? "",
            "client_id": "ReactNativeOAuthClient",
        ])
        #expect(refreshed.status == 200)
        #expect(try idClaims(refreshed)["nonce"] == nil)
    }

    @Test func wrongVerifierIsRefused() {
        let harness = Harness()
        let sso = harness.ssoToken()!
        let location = harness.am.authorize(
            AuthorizeRequest(
                ssoToken: sso, clientId: "ReactNativeOAuthClient", redirectUri: Harness.redirect, scope: "openid",
                state: "x", codeChallenge: PKCE.challenge(for: "right-verifier", method: "S256"))
        ).headers["Location"]!
        let code = Harness.query(location)["code"]!
        let form = [
            "grant_type": "authorization_code", "code": code, "client_id": "ReactNativeOAuthClient",
            "redirect_uri": Harness.redirect, "code_verifier": "wrong-verifier",
        ]
        let reply = harness.am.token(form: form)
        #expect(reply.status == 400)
        #expect(reply.body["error"] == "invalid_grant")
        // A code is single use, even after a failed attempt.
        var retry = form
        retry["code_verifier"] = "right-verifier"
        #expect(harness.am.token(form: retry).body["error"] == "invalid_grant")
    }

    @Test func authorizeRedirectCarriesStateAndIssuer() {
        let harness = Harness()
        let reply = harness.am.authorize(
            AuthorizeRequest(
                ssoToken: harness.ssoToken()!, clientId: "ReactNativeOAuthClient", redirectUri: Harness.redirect,
                scope: "openid profile", state: "st4te", codeChallenge: "abc"))
        #expect(reply.status == 302)
        let query = Harness.query(reply.headers["Location"]!)
        #expect(query["state"] == "st4te")
        #expect(query["iss"] == "http://localhost:8080/am/oauth2/realms/root/realms/alpha")
        #expect(query["client_id"] == "ReactNativeOAuthClient")
    }

    /// OpenAM's `OpenIdPrompt.isValid`: `none` with `login` or `consent`, and `select_account`,
    /// are refused at the redirect URI, with a session or without; `none` alone and `login` are not.
    @Test(arguments: [
        ("none login", false), ("NONE consent", false), ("select_account", false), ("none", true),
        ("login consent", true),
    ])
    func promptsAMRefuses(prompt: String, accepted: Bool) {
        let harness = Harness()
        let reply = harness.am.authorize(
            AuthorizeRequest(
                ssoToken: harness.ssoToken()!, clientId: "ReactNativeOAuthClient", redirectUri: Harness.redirect,
                scope: "openid", state: "s", codeChallenge: "c", prompt: prompt))
        let query = Harness.query(reply.headers["Location"]!)
        if accepted {
            #expect(query["code"] != nil)
        } else {
            #expect(query["error"] == "bad_request")
            #expect(query["error_description"] == "Prompt parameter \(prompt) is invalid or unsupported")
            #expect(query["state"] == "s")
        }
    }

    @Test func authorizeWithoutSessionOrWithBadClient() {
        let harness = Harness()
        let noSession = harness.am.authorize(
            AuthorizeRequest(
                ssoToken: "bogus", clientId: "ReactNativeOAuthClient", redirectUri: Harness.redirect, scope: "openid",
                state: "s", codeChallenge: "c"))
        #expect(Harness.query(noSession.headers["Location"]!)["error"] == "interaction_required")
        let badClient = harness.am.authorize(
            AuthorizeRequest(
                ssoToken: "bogus", clientId: "Nope", redirectUri: Harness.redirect, scope: "openid", state: "s",
                codeChallenge: "c"))
        #expect(badClient.status == 400)
        #expect(badClient.body["error"] == "invalid_client")
        let badScope = harness.am.authorize(
            AuthorizeRequest(
                ssoToken: harness.ssoToken()!, clientId: "ReactNativeOAuthClient", redirectUri: Harness.redirect,
                scope: "openid admin", state: "s", codeChallenge: "c"))
        #expect(badScope.body["error"] == "invalid_scope")
    }

    @Test func refreshRotatesAndRefusesReplay() {
        let harness = Harness()
        let first = harness.tokens(ssoToken: harness.ssoToken()!)
        let oldRefresh = first.body["refresh_token"]!.stringValue!
        let form = ["grant_type": "refresh_token", "refresh_token": oldRefresh, "client_id": "ReactNativeOAuthClient"]
        harness.clock.advance(by: 10)
        let second = harness.am.token(form: form)
        #expect(second.status == 200)
        #expect(second.body["refresh_token"]?.stringValue != oldRefresh)
        #expect(second.body["access_token"] != first.body["access_token"])
        #expect(harness.am.refreshCount == 1)
        let replay = harness.am.token(form: form)
        #expect(replay.status == 400)
        #expect(replay.body["error"] == "invalid_grant")
        #expect(harness.am.refreshCount == 1)
    }

    @Test func userInfoByScope() {
        let harness = Harness()
        let token = harness.tokens(ssoToken: harness.ssoToken()!).body["access_token"]!.stringValue!
        let info = harness.am.userInfo(accessToken: token)
        #expect(info.status == 200)
        #expect(info.body["name"] == "Demo User")
        #expect(info.body["given_name"] == "Demo")
        #expect(info.body["family_name"] == "User")
        #expect(info.body["email"] == "demo@example.com")
        #expect(info.body["sub"] == .string(harness.am.users.find(username: "demo")!.id))
        let narrow = harness.tokens(ssoToken: harness.ssoToken()!, scope: "openid").body["access_token"]!.stringValue!
        #expect(harness.am.userInfo(accessToken: narrow).body["email"] == nil)
    }

    @Test func expiredOrRevokedTokensGetNoUserInfo() {
        let harness = Harness()
        let tokens = harness.tokens(ssoToken: harness.ssoToken()!).body
        let access = tokens["access_token"]!.stringValue!
        _ = harness.am.revoke(form: [
            "token": tokens["refresh_token"]!.stringValue!, "client_id": "ReactNativeOAuthClient",
        ])
        let reply = harness.am.userInfo(accessToken: access)
        #expect(reply.status == 401)
        #expect(reply.body == AMErrors.invalidToken)

        let other = harness.tokens(ssoToken: harness.ssoToken()!).body["access_token"]!.stringValue!
        _ = harness.am.revoke(form: ["token": other, "client_id": "ReactNativeOAuthClient"])
        #expect(harness.am.userInfo(accessToken: other).status == 401)

        let third = harness.tokens(ssoToken: harness.ssoToken()!).body["access_token"]!.stringValue!
        harness.clock.advance(by: 3600)
        #expect(harness.am.userInfo(accessToken: third).status == 401)
        #expect(harness.am.userInfo(accessToken: "not-a-token").status == 401)
    }

    @Test func sessionLogoutAndEndSession() {
        let harness = Harness()
        let sso = harness.ssoToken()!
        #expect(harness.am.logoutSession(ssoToken: sso).body == ["result": "Successfully logged out"])
        #expect(harness.am.logoutSession(ssoToken: sso).status == 401)
        let sso2 = harness.ssoToken()!
        let idToken = harness.tokens(ssoToken: sso2).body["id_token"]!.stringValue!
        #expect(harness.am.endSession(idTokenHint: idToken, clientId: nil, at: .forgeRockSignOff).status == 200)
        #expect(harness.am.sessions.find(sso2) == nil)
    }
}
