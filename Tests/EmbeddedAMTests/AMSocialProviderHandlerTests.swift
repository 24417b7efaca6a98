import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// The Social Provider Handler node of docs/examples/am-exports/social/SocialLogin.journey.json
/// against the emulated providers: what it sends, the tokens it takes, the ones it refuses.
struct AMSocialProviderHandlerTests {
    static func harness() throws -> Harness {
        let h = Harness()
        for journey in try JourneyImport.load([AMExports.source("social/SocialLogin")], builtIn: Set(h.am.journeyNames))
        {
            h.am.add(journey: journey)
        }
        return h
    }

    static func output(_ step: JSONValue, _ name: String) -> JSONValue? {
        step["callbacks"]?.arrayValue?.first?["output"]?.arrayValue?.first { $0["name"]?.stringValue == name }?["value"]
    }

    /// The IdPCallback step for `provider`.
    static func idpStep(_ h: Harness, _ provider: String) -> JSONValue {
        h.submit(h.start("SocialLogin").body, ["IDToken1": .string(provider)]).body
    }

    static func google(_ h: Harness, clientId: String? = nil, nonce: String) throws -> String {
        try h.am.socialProviders.signIn(
            SocialSignInRequest(
                kind: .google, clientId: clientId ?? "1058936455912-emulated.apps.googleusercontent.com",
                scopes: ["openid"], nonce: nonce)
        ).idToken ?? ""
    }

    @Test func theIdPCallbackCarriesTheProvidersConfigAndAFreshNonce() throws {
        let h = try Self.harness()
        let step = Self.idpStep(h, "google")
        #expect(Self.output(step, "provider") == "google")
        #expect(Self.output(step, "clientId") == "1058936455912-emulated.apps.googleusercontent.com")
        #expect(Self.output(step, "scopes") == ["openid", "profile", "email"])
        #expect(Self.output(step, "acceptsJSON") == false)
        let nonce = Self.output(step, "nonce")?.stringValue ?? ""
        #expect(nonce.count == 32)
        #expect(Self.output(Self.idpStep(h, "google"), "nonce")?.stringValue != nonce)
        #expect(Self.output(Self.idpStep(h, "apple"), "acceptsJSON") == true)
        #expect(Self.output(Self.idpStep(h, "facebook"), "nonce") == "")
    }

    @Test func aGoogleIDTokenForThisNonceSignsIn() throws {
        let h = try Self.harness()
        let step = Self.idpStep(h, "google")
        let token = try Self.google(h, nonce: Self.output(step, "nonce")?.stringValue ?? "")
        let done = h.submit(step, ["IDToken1token": .string(token), "IDToken1token_type": "id_token"])
        #expect(done.status == 200 && done.body["tokenId"] != nil)
    }

    @Test func aScenarioStandsInForTheTransformationScript() throws {
        let h = try Self.harness()
        try h.am.applyScenario([
            "journeys": [
                "SocialLogin": [
                    "Social Provider Handler": [
                        "response": ["status": 200, "body": ["userName": "sam", "mail": "sam@example.org", "sn": "S"]]
                    ]
                ]
            ]
        ])
        let step = Self.idpStep(h, "google")
        let token = try Self.google(h, nonce: Self.output(step, "nonce")?.stringValue ?? "")
        #expect(h.submit(step, ["IDToken1token": .string(token), "IDToken1token_type": "id_token"]).status == 200)
        #expect(h.am.users.find(username: "sam")?.attributes["mail"] == "sam@example.org")
        #expect(h.am.users.find(username: "sam.social@gmail.com") == nil)
    }

    @Test func tokensTheProviderDidNotIssueForThisRequestAreRefused() throws {
        let h = try Self.harness()
        func refused(_ make: (String) throws -> (String, String)) throws -> Bool {
            let step = Self.idpStep(h, "google")
            let (token, type) = try make(Self.output(step, "nonce")?.stringValue ?? "")
            return h.submit(step, ["IDToken1token": .string(token), "IDToken1token_type": .string(type)]).status == 401
        }
        #expect(try refused { _ in ("", "id_token") })
        #expect(try refused { nonce in (try Self.google(h, nonce: nonce + "x"), "id_token") }, "another nonce")
        #expect(try refused { nonce in (try Self.google(h, clientId: "someone-else", nonce: nonce), "id_token") })
        #expect(try refused { nonce in (try Self.google(h, nonce: nonce), "authorization_code") }, "not a code")
        #expect(try refused { nonce in (try Self.google(h, nonce: nonce), "bearer") })
        // Apple's key does not verify a token claiming to be Google's.
        #expect(
            try refused { nonce in
                let apple = try h.am.socialProviders.signIn(
                    SocialSignInRequest(
                        kind: .apple, clientId: "1058936455912-emulated.apps.googleusercontent.com", scopes: [],
                        nonce: nonce))
                let parts = (apple.idToken ?? "").split(separator: ".")
                let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"google-emulated-1","typ":"JWT"}"#.utf8))
                return ([header, String(parts[1]), String(parts[2])].joined(separator: "."), "id_token")
            })
    }

    /// The journey times out long before a token does, so expiry is checked on the client itself.
    @Test func anExpiredIDTokenIsRefused() throws {
        let h = try Self.harness()
        let token = try Self.google(h, nonce: "n")
        let client = SocialProviderClient(
            name: "google",
            config: [
                "clientId": "1058936455912-emulated.apps.googleusercontent.com",
                "issuer": "https://accounts.google.com",
                "jwksUriEndpoint": "https://www.googleapis.com/oauth2/v3/certs",
            ])
        func profile(at now: Double) throws(SocialTokenError) -> SocialProfile {
            try client.profile(
                token: token, tokenType: "id_token", nonce: "n", now: now,
                network: ProviderNetwork(
                    get: { url, bearer in h.am.socialProviders.get(url, bearer: bearer) }, post: { _, _ in nil }))
        }
        #expect(try profile(at: h.clock.now).subject == "110169484474386276334")
        #expect(throws: SocialTokenError(description: "the ID token has expired")) {
            try profile(at: h.clock.now + 3600)
        }
    }

    @Test func graphMeAnswersOnlyAValidFacebookAccessToken() throws {
        let h = try Self.harness()
        let token = try h.am.socialProviders.signIn(
            SocialSignInRequest(kind: .facebook, clientId: "2147483647015", scopes: ["email"], nonce: "")
        ).accessToken
        let me = h.am.socialProviders.get("https://graph.facebook.com/me?fields=email", bearer: token)
        #expect(me.status == 200 && me.body["email"] == "demo@example.com")
        #expect(h.am.socialProviders.get("https://graph.facebook.com/me", bearer: "EAAB").status == 400)
        #expect(h.am.socialProviders.get("https://graph.facebook.com/me", bearer: nil).status == 400)
        let jwks = h.am.socialProviders.get("https://www.googleapis.com/oauth2/v3/certs", bearer: nil)
        #expect(jwks.body["keys"]?.arrayValue?.first?["kid"] == "google-emulated-1")
        #expect(h.am.socialProviders.get("https://example.com/", bearer: nil).status == 404)
        h.clock.advance(by: 3600)
        #expect(h.am.socialProviders.get("https://graph.facebook.com/me", bearer: token).status == 400, "expired")
    }

    @Test func applesTokenEndpointRedeemsItsCodeForItsClientWithinFiveMinutes() throws {
        let h = try Self.harness()
        let apple = try h.am.socialProviders.signIn(
            SocialSignInRequest(kind: .apple, clientId: "com.example.app", scopes: ["email"], nonce: "n"))
        let url = "https://appleid.apple.com/auth/token"
        func redeem(_ clientId: String) -> ServerReply {
            h.am.socialProviders.post(
                url,
                form: [
                    "grant_type": "authorization_code", "code": apple.authorizationCode ?? "", "client_id": clientId,
                ])
        }
        #expect(redeem("com.example.app").body["id_token"]?.stringValue == apple.idToken)
        #expect(redeem("com.example.other").body == ["error": "invalid_grant"])
        #expect(h.am.socialProviders.post("https://example.com/token", form: [:]).status == 404)
        h.clock.advance(by: 300)
        #expect(redeem("com.example.app").status == 400, "expired")
    }

    @Test func aProviderWithoutATestAccountOrAClientIdGivesNothing() {
        var config = EmbeddedAMConfig()
        config.socialAccounts.google = nil
        let am = EmbeddedAM(config: config, clock: VirtualClock(), random: SeededRandomSource(seed: 1))
        #expect(throws: SocialSignInError.noAccount(.google)) {
            try am.socialProviders.signIn(SocialSignInRequest(kind: .google, clientId: "c", scopes: [], nonce: ""))
        }
        #expect(throws: SocialSignInError.missingClientId) {
            try am.socialProviders.signIn(SocialSignInRequest(kind: .apple, clientId: "", scopes: [], nonce: ""))
        }
    }
}
