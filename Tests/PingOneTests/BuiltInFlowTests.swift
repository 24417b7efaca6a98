import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import PingOne
import Testing

/// Each built-in flow end to end: `/as/authorize` with `pi.flow`, the forms as davinci-client
/// submits them, the code, and tokens from `/as/token` that the shared issuer accepts.
struct BuiltInFlowTests {
    @Test func signOnAnswersTheFirstFormThenACodeThatBuysTokens() throws {
        let client = DaVinciClient()
        let first = client.start()
        #expect(first.status == 200)
        #expect(first.body["eventName"] == "continue")
        #expect(first.body["capabilityName"] == "customHTMLTemplate")
        #expect(client.fieldTypes == ["TEXT", "PASSWORD", "SUBMIT_BUTTON", "FLOW_BUTTON", "FLOW_BUTTON"])
        // ping-android-sdk finds flow buttons by `inputType` (it registers ACTION, not FLOW_BUTTON).
        let fields = first.body["form"]?["components"]?["fields"]?.arrayValue ?? []
        #expect(fields.map { $0["inputType"]?.stringValue } == [nil, nil, nil, "ACTION", "ACTION"])
        let href = first.body["_links"]?["next"]?["href"]?.stringValue ?? ""
        #expect(href.hasPrefix("http://localhost:8080/\(client.env)/davinci/connections/"))
        #expect(href.hasSuffix("/capabilities/customHTMLTemplate"))
        #expect(client.cookies["interactionId"] == first.body["interactionId"]?.stringValue)

        let done = client.next(action: "SIGNON", ["username": "demo", "password": "Ch4ng3it!"])
        #expect(done.status == 200)
        #expect(done.body["status"] == "COMPLETED")
        #expect(done.body["authorizeResponse"]?["state"] == "s1")
        #expect(client.cookies["ST"] != nil)
        let tokens = client.token(code: try #require(done.code))
        #expect(tokens.status == 200)
        let access = try #require(tokens.body["access_token"]?.stringValue)
        // Both tokens name the issuer PingOne's discovery advertises, not AM's.
        for name in ["access_token", "id_token"] {
            let token = try #require(tokens.body[name]?.stringValue)
            let claims = try JSONParser.parse(Base64URL.decode(String(token.split(separator: ".")[1])) ?? [])
            #expect(claims["iss"] == .string("http://localhost:8080/\(client.env)/as"))
        }
        let info = client.send(
            PingOneRequest(
                method: "GET", path: "/\(client.env)/as/userinfo", headers: ["authorization": "Bearer \(access)"]))
        #expect(info.status == 200)
        #expect(info.body["sub"] != nil)
        // The session is the embedded server's: AM's face knows it too.
        #expect(client.embedded.sessions.find(client.cookies["ST"] ?? "") != nil)
    }

    /// OpenID Connect Core §3.1.2.1: `/as/authorize`'s nonce is the ID token's, through the flow
    /// or through a PingOne session that answers the code at once.
    @Test func theAuthorizeRequestsNonceIsTheIdTokensNonce() throws {
        func nonce(_ tokens: ServerReply) throws -> JSONValue? {
            let token = try #require(tokens.body["id_token"]?.stringValue)
            return try JSONParser.parse(Base64URL.decode(String(token.split(separator: ".")[1])) ?? [])["nonce"]
        }
        let client = DaVinciClient()
        client.start(nonce: "n-0S6_WzA2Mj")
        let done = client.next(action: "SIGNON", ["username": "demo", "password": "Ch4ng3it!"])
        #expect(try nonce(client.token(code: try #require(done.code))) == "n-0S6_WzA2Mj")
        let again = client.start(nonce: "second")
        #expect(try nonce(client.token(code: try #require(again.code))) == "second")
        #expect(try nonce(client.token(code: try #require(client.start().code))) == nil)
    }

    @Test func aWrongPasswordIsAnErrorAndTheSameFormMayBeSubmittedAgain() {
        let client = DaVinciClient()
        client.start()
        let wrong = client.next(action: "SIGNON", ["username": "demo", "password": "nope"])
        #expect(wrong.status == 400)
        #expect(wrong.body["connectorId"] == "pingOneSSOConnector")
        #expect(wrong.body["capabilityName"] == "checkPassword")
        #expect(wrong.problems.first?["target"] == "password")
        #expect(wrong.problems.first?["code"] == "INVALID_VALUE")
        let right = client.next(action: "SIGNON", ["username": "demo", "password": "Ch4ng3it!"])
        #expect(right.code != nil)
    }

    @Test func registrationChecksThePolicyAndTheUsernameThenSignsTheNewUserOn() throws {
        let client = DaVinciClient()
        client.start()
        let form = client.next(action: "REGISTER", eventType: "action")
        #expect(client.formName == "Registration Form")
        #expect(form.body["passwordPolicy"]?["length"]?["min"] == 8)
        let user: JSONObject = ["username": "ada", "email": "ada@example.com", "givenName": "Ada", "password": "short"]
        let weak = client.next(action: "REGISTER", user)
        #expect(weak.status == 400)
        let inner = weak.problems.first?["innerError"]
        #expect(inner?["unsatisfiedRequirements"]?.arrayValue?.contains("length") == true)
        var taken = user
        taken["username"] = "demo"
        taken["password"] = "Str0ng!Pass"
        #expect(client.next(action: "REGISTER", taken).problems.first?["code"] == "UNIQUENESS_VIOLATION")
        var good = user
        good["password"] = "Str0ng!Pass"
        let done = client.next(action: "REGISTER", good)
        #expect(done.code != nil)
        let created = try #require(client.embedded.users.find(username: "ada"))
        #expect(created.email == "ada@example.com")
        #expect(client.token(code: done.code ?? "").status == 200)
    }

    @Test func passwordResetMailsACodeThroughTheOutboxAndSetsTheNewPassword() {
        let client = DaVinciClient()
        client.start(flow: "password-reset")
        #expect(client.formName == "Forgot Password")
        #expect(client.fieldTypes.first == "LABEL")
        client.next(action: "SEND", ["username": "demo"])
        #expect(client.formName == "Reset Password")
        let sent = client.embedded.outbox.lastOneTimeCode
        #expect(sent?.delivery == "email")
        #expect(sent?.to == "demo@example.com")
        #expect(sent?.journey == "davinci:password-reset")
        let wrong = client.next(action: "RESET", ["otp": "000000x", "password": "N3w!Passw0rd"])
        #expect(wrong.problems.first?["target"] == "otp")
        let done = client.next(action: "RESET", ["otp": .string(sent?.code ?? ""), "password": "N3w!Passw0rd"])
        #expect(done.code != nil)
        #expect(client.embedded.users.verify(username: "demo", password: "N3w!Passw0rd") != nil)
        #expect(client.embedded.users.verify(username: "demo", password: "Ch4ng3it!") == nil)
        #expect(client.token(code: done.code ?? "").body["access_token"] != nil)
    }

    @Test func signOnWithMFAOffersTheUsersDevicesAndChecksTheCode() {
        let client = DaVinciClient()
        client.start(flow: "sign-on-mfa")
        client.next(action: "SIGNON", ["username": "demo", "password": "Ch4ng3it!"])
        #expect(client.fieldTypes == ["DEVICE_AUTHENTICATION", "SUBMIT_BUTTON", "FLOW_BUTTON"])
        let options = client.node["form"]?["components"]?["fields"]?.arrayValue?.first?["options"]?.arrayValue ?? []
        #expect(options.compactMap { $0["type"]?.stringValue } == ["EMAIL", "SMS"])
        #expect(options.first?["description"] == "d***@example.com")
        client.next(action: "NEXT", ["device": ["type": "SMS", "id": "sms", "description": "*"]])
        #expect(client.formName == "Enter Passcode")
        let sent = client.embedded.outbox.lastOneTimeCode
        #expect(sent?.delivery == "sms")
        #expect(sent?.to == "+15555550100")
        let done = client.next(action: "VERIFY", ["otp": .string(sent?.code ?? "")])
        #expect(done.code != nil)
        #expect(client.token(code: done.code ?? "").body["access_token"] != nil)
    }

    @Test func aSessionCookieAnswersTheCodeAtOnceUnlessPromptIsLogin() {
        let client = DaVinciClient()
        client.start()
        client.next(action: "SIGNON", ["username": "demo", "password": "Ch4ng3it!"])
        #expect(client.start().code != nil)
        #expect(client.start(prompt: "login").body["form"] != nil)
    }
}
