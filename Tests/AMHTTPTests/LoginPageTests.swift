import AuthBridgeCore
import HTTPServer
import IdentityServer
import Testing

@testable import AMHTTP

/// `/authorize` without a session (or with `prompt=login`) and the login page it sends the
/// browser to: requests in, the server's calls and the responses out.
@Suite struct LoginPageFlow {
    static let authorizeQuery =
        "client_id=web&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback&scope=openid&state=s"
        + "&code_challenge=ch&code_challenge_method=S256&response_type=code"
    static let goto = Exchange.oauth + "/authorize?" + authorizeQuery
    static let page = "/am/UI/Login?realm=%2Falpha&goto=" + PercentEncoding.escape(goto)
    static let interactionRequired = ServerReply(
        status: 302,
        headers: [
            "Location":
                "http://localhost:3000/callback?error_description=The%20request%20requires%20some%20interaction"
                + "&state=s&error=interaction_required"
        ])
    static let credentials: JSONValue = [
        "authId": "a1", "header": "Sign In",
        "callbacks": [
            [
                "type": "NameCallback", "output": [["name": "prompt", "value": "User Name"]],
                "input": [["name": "IDToken1", "value": ""]], "_id": 0,
            ],
            [
                "type": "PasswordCallback", "output": [["name": "prompt", "value": "Password"]],
                "input": [["name": "IDToken2", "value": ""]], "_id": 1,
            ],
        ],
    ]

    static func form(_ step: JSONValue, _ fields: [(String, String)]) -> String {
        ([("realm", "/alpha"), ("goto", goto), ("step", JSONWriter().string(step))] + fields)
            .map { "\(PercentEncoding.escape($0.0))=\(PercentEncoding.escape($0.1))" }.joined(separator: "&")
    }

    // MARK: /authorize

    @Test func withoutASessionTheBrowserGoesToTheLoginPageWithGotoBackToAuthorize() {
        let exchange = Exchange()
        exchange.server.reply = Self.interactionRequired
        let response = exchange.send("GET", Self.goto)
        #expect(response.status == 302)
        #expect(response.header("Location") == Self.page)
        #expect(response.header("Cache-Control") == "no-store")
        #expect(exchange.server.calls.count == 1)
    }

    @Test func promptNoneKeepsTheErrorRedirect() {
        let exchange = Exchange()
        exchange.server.reply = Self.interactionRequired
        let response = exchange.send("GET", Self.goto + "&prompt=none")
        #expect(response.status == 302)
        #expect(response.header("Location") == Self.interactionRequired.headers["Location"])
    }

    @Test func promptLoginEndsTheSessionAndSignsInAfreshWithoutAskingAgainOnReturn() {
        let exchange = Exchange()
        exchange.server.reply = Self.interactionRequired
        let response = exchange.send(
            "GET", Self.goto + "&prompt=login%20consent", headers: [("Cookie", "iPlanetDirectoryPro=sso1")])
        guard case .authorize(let call) = exchange.server.calls.first else {
            Issue.record("no authorize call: \(exchange.server.calls)")
            return
        }
        #expect(call.ssoToken == "")
        #expect(exchange.server.calls.last == .logoutSession("sso1"))
        #expect(response.status == 302)
        #expect(
            response.header("Location")
                == "/am/UI/Login?realm=%2Falpha&goto=" + PercentEncoding.escape(Self.goto + "&prompt=consent"))
    }

    @Test func anUnknownClientOrRedirectURIIsRefusedBeforeAnyPage() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(
            status: 400,
            body: AMErrors.oauth(
                "redirect_uri_mismatch", "The redirection URI provided does not match a pre-registered value."))
        let response = exchange.send(
            "GET",
            Exchange.oauth + "/authorize?client_id=web&redirect_uri=https%3A%2F%2Fevil.example&response_type=code")
        #expect(response.status == 400)
        #expect(response.json?["error"] == "redirect_uri_mismatch")
        #expect(response.header("Location") == nil)
    }

    @Test func acrValuesOrServiceNameTheJourneyAndAPostComesBackAsAGet() {
        let exchange = Exchange()
        exchange.server.reply = Self.interactionRequired
        let acr = exchange.send("GET", Self.goto + "&acr_values=Second%20Login&service=Other")
        #expect(acr.header("Location")?.hasPrefix("/am/UI/Login?realm=%2Falpha&service=Second&goto=") == true)
        let posted = exchange.send(
            "POST", "/oauth2/alpha/authorize", body: "service=Other&client_id=web&response_type=code")
        #expect(
            posted.header("Location")
                == "/UI/Login?realm=%2Falpha&service=Other&goto="
                + PercentEncoding.escape("/oauth2/alpha/authorize?client_id=web&response_type=code&service=Other"))
    }

    // MARK: the page

    @Test func thePageStartsTheJourneyAndDrawsItsStepAsAForm() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(status: 200, body: Self.credentials)
        let response = exchange.send("GET", Self.page + "&service=Login")
        #expect(
            exchange.server.calls == [.authenticate(.init(authIndexType: "service", authIndexValue: "Login"))])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/html;charset=UTF-8")
        let html = response.text
        #expect(html.contains(#"<form method="post" action="/am/UI/Login">"#))
        #expect(html.contains(#"<input type="hidden" name="goto" value="\#(HTML.escape(Self.goto))">"#))
        #expect(html.contains(#"<label>User Name<input type="text" name="IDToken1" value="""#))
        #expect(html.contains(#"<input type="password" name="IDToken2" value="""#))
        #expect(html.contains(#"name="step" value="{&quot;authId&quot;:&quot;a1&quot;"#))
        #expect(html.contains("<h1>Sign In</h1>"))
        #expect(!html.contains("http://") && !html.contains("https://"))
    }

    @Test func theAnsweredStepSignsInSetsTheCookieAndReturnsToAuthorize() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(
            status: 200, body: ["tokenId": "t1", "successUrl": "/enduser/?realm=/alpha", "realm": "/alpha"],
            headers: ["Set-Cookie": "iPlanetDirectoryPro=t1; Path=/; HttpOnly"])
        let response = exchange.send(
            "POST", "/am/UI/Login", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Self.form(Self.credentials, [("IDToken1", "demo"), ("IDToken2", "Ch4ng3it!")]))
        guard case .authenticate(let call) = exchange.server.calls.first, let payload = call.payload else {
            Issue.record("no authenticate call: \(exchange.server.calls)")
            return
        }
        #expect(payload["authId"] == "a1")
        #expect(payload["callbacks"]?.arrayValue?[0]["input"]?.arrayValue?[0]["value"] == "demo")
        #expect(payload["callbacks"]?.arrayValue?[1]["input"]?.arrayValue?[0]["value"] == "Ch4ng3it!")
        #expect(response.status == 302)
        #expect(response.header("Location") == Self.goto)
        #expect(response.header("Set-Cookie") == "iPlanetDirectoryPro=t1; Path=/; HttpOnly")
    }

    @Test func aFailedLoginShowsAMsMessageOverAFreshStart() {
        let exchange = Exchange()
        exchange.server.replies = [
            ServerReply(status: 401, body: ["code": 401, "reason": "Unauthorized", "message": "Login failure"]),
            ServerReply(status: 200, body: Self.credentials),
        ]
        let response = exchange.send(
            "POST", "/am/UI/Login", body: Self.form(Self.credentials, [("IDToken1", "demo"), ("IDToken2", "nope")]))
        #expect(exchange.server.calls.count == 2)
        #expect(exchange.server.calls.last == .authenticate(.init()))
        #expect(response.status == 200)
        #expect(response.text.contains(#"<p class="error" role="alert">Login failure</p>"#))
        #expect(response.text.contains(#"name="IDToken1""#))
    }

    @Test func aRefusedAnswerShowsTheSameStepAgainWithTheMessage() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(
            status: 400, body: ["code": 400, "reason": "Bad Request", "message": "IDToken1: not an index"])
        let choice: JSONValue = [
            "authId": "a2",
            "callbacks": [
                [
                    "type": "ChoiceCallback",
                    "output": [
                        ["name": "prompt", "value": "Color"], ["name": "choices", "value": ["red", "green"]],
                        ["name": "defaultChoice", "value": 1],
                    ],
                    "input": [["name": "IDToken1", "value": 1]],
                ]
            ],
        ]
        let response = exchange.send("POST", "/am/UI/Login", body: Self.form(choice, [("IDToken1", "x")]))
        #expect(response.text.contains("IDToken1: not an index"))
        #expect(response.text.contains(#"<input type="radio" name="IDToken1" value="1" checked> green"#))
        #expect(exchange.server.calls.count == 1)
    }

    @Test func aGotoOtherThanThisServersAuthorizeIsRefusedBeforeTheJourney() {
        for goto in [
            "https://evil.example/am/oauth2/realms/root/realms/alpha/authorize",
            "//evil.example/am/oauth2/alpha/authorize",
            "/\\evil.example", "/am/json/realms/root/realms/alpha/authenticate",
            "/am/oauth2/realms/root/realms/beta/authorize",
            "javascript:alert(1)",
        ] {
            let exchange = Exchange()
            let response = exchange.send("GET", "/am/UI/Login?goto=" + PercentEncoding.escape(goto))
            #expect(response.status == 400, "\(goto)")
            #expect(exchange.server.calls == [], "\(goto)")
            #expect(response.header("Location") == nil)
        }
        let other = Exchange().send("GET", "/am/UI/Login?realm=/beta")
        #expect(other.status == 404)
    }

    @Test func everyCallbackTheJourneySendsIsDrawnAndEverythingIsEscaped() {
        let exchange = Exchange()
        func callback(_ type: String, _ outputs: [(String, JSONValue)], _ inputs: [(String, JSONValue)]) -> JSONValue {
            [
                "type": .string(type),
                "output": .array(outputs.map { ["name": .string($0.0), "value": $0.1] }),
                "input": .array(inputs.map { ["name": .string($0.0), "value": $0.1] }),
            ]
        }
        let step: JSONValue = [
            "authId": "a3", "header": "<b>Hi</b>", "description": "Fill \"this\" in",
            "callbacks": [
                callback("TextOutputCallback", [("message", "<script>x</script>"), ("messageType", "1")], []),
                callback("BooleanAttributeInputCallback", [("prompt", "Updates")], [("IDToken2", false)]),
                callback(
                    "StringAttributeInputCallback",
                    [
                        ("prompt", "Mail"),
                        (
                            "failedPolicies",
                            ["{ \"params\": { \"minLength\": 8 }, \"policyRequirement\": \"MIN_LENGTH\" }"]
                        ),
                    ],
                    [("IDToken3", "a'b"), ("IDToken3validateOnly", false)]),
                callback(
                    "KbaCreateCallback", [("prompt", "Security"), ("predefinedQuestions", ["Pet?", "City?"])],
                    [("IDToken4question", ""), ("IDToken4answer", "")]),
                callback(
                    "TermsAndConditionsCallback", [("terms", "Be nice"), ("version", "1.0")], [("IDToken5", false)]),
                callback("HiddenValueCallback", [("value", "v"), ("id", "h")], [("IDToken6", "h")]),
                callback("DeviceProfileCallback", [("message", "")], [("IDToken7", "")]),
                callback(
                    "ConfirmationCallback", [("prompt", ""), ("options", ["Yes", "No"])], [("IDToken8", 0)]),
            ],
        ]
        exchange.server.reply = ServerReply(status: 200, body: step)
        let html = exchange.send("GET", "/am/UI/Login").text
        #expect(html.contains("<title>&lt;b&gt;Hi&lt;/b&gt;</title>"))
        #expect(html.contains("Fill &quot;this&quot; in"))
        #expect(html.contains(#"<p class="warning">&lt;script&gt;x&lt;/script&gt;</p>"#))
        #expect(!html.contains("<script>x"))
        #expect(html.contains(#"<input type="checkbox" name="IDToken2" value="true"> Updates"#))
        #expect(html.contains(#"name="IDToken3" value="a&#39;b""#))
        #expect(html.contains("<li>MIN_LENGTH (minLength: 8)</li>"))
        #expect(html.contains(#"<select name="IDToken4question">"#))
        #expect(html.contains(#"<div class="terms">Be nice</div>"#))
        #expect(html.contains("DeviceProfileCallback, which only an app&#39;s SDK can answer"))
        #expect(html.contains(#"<button type="submit" name="IDToken8" value="1">No</button>"#))
        #expect(!html.contains(">Next</button>"))

        let answered = LoginForm.answer(
            step,
            with: [
                "IDToken2": "true", "IDToken3": "me@example.com", "IDToken4question": "City?", "IDToken4answer": "Oslo",
                "IDToken6": "forged", "IDToken7": "forged", "IDToken8": "1",
            ])
        let inputs = answered["callbacks"]?.arrayValue?.map { $0["input"]?.arrayValue?.map { $0["value"] ?? .null } }
        #expect(
            inputs == [
                [], [true], ["me@example.com", false], ["City?", "Oslo"], [false], ["h"], [""], [1],
            ])
    }
}
