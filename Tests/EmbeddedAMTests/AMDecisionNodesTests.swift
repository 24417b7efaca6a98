import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's Success URL, Zero Page Login, KBA Verification, Email Template and persistent cookie
/// nodes: where each outcome leads, and what each leaves behind.
struct AMDecisionNodesTests {
    typealias T = AMMoreNodesTests

    @Test func setSuccessUrlReplacesTheSuccessUrl() throws {
        let h = try T.harness([
            ("n", "SetSuccessUrlNode", ["outcome": T.success], ["successUrl": "https://app.example.com/home"])
        ])
        let done = T.begin(h)
        #expect(done.body["tokenId"] != nil)
        #expect(done.body["successUrl"] == "https://app.example.com/home")
        do {
            _ = try AMExports.load([
                AMExports.tree("T", entry: "n", [("n", "SetSuccessUrlNode", ["outcome": T.success], [:])])
            ])
            Issue.record("loaded")
        } catch {
            #expect(error.description.contains("node \"n\" (SetSuccessUrlNode): \"successUrl\" is required"))
        }
    }

    @Test func zeroPageLoginHasNoHeadersHere() throws {
        let h = try T.harness([
            (
                "n", "ZeroPageLoginNode", ["true": T.success, "false": "marker"],
                [
                    "usernameHeader": "X-OpenAM-Username", "passwordHeader": "X-OpenAM-Password",
                    "allowWithoutReferer": true, "referrerWhiteList": [],
                ]
            )
        ])
        #expect(T.reachedMarker(T.begin(h)))
        #expect(throws: JourneyImport.Failure.self) {
            try AMExports.load([
                AMExports.tree(
                    "T", entry: "n", [("n", "ZeroPageLoginNode", ["true": T.success], ["allowWithoutReferer": "yes"])])
            ])
        }
    }

    static func storeKba(_ h: Harness, _ entries: [(String, String)]) {
        let random = SeededRandomSource(seed: 9)
        let hashed = entries.map {
            KbaAnswers.hashed(["question": .string($0.0), "answer": .string($0.1)], random: random)
        }
        _ = h.am.users.update(username: "demo") { $0.attributes["kbaInfo"] = .array(hashed) }
    }

    static let kba: [(id: String, type: String, connections: JSONObject, config: JSONObject)] = [
        (
            "n", "KbaVerifyNode", ["true": T.success, "false": "marker"],
            ["kbaInfoAttribute": "kbaInfo", "identityAttribute": "userName"]
        )
    ]

    @Test func kbaVerifyAsksOneStoredQuestionAndComparesCaseInsensitively() throws {
        let h = try T.harness(Self.kba)
        Self.storeKba(h, [("What's your favorite color?", "Blue"), ("Who was your first employer?", "Acme")])
        let answers = ["What's your favorite color?": "bLUE", "Who was your first employer?": "ACME"]
        var prompts: Set<String> = []
        for _ in 0..<6 {
            let step = T.begin(h).body
            #expect(T.types(step) == ["PasswordCallback"])
            let prompt = try #require(T.output(step, 0, "prompt")?.stringValue)
            prompts.insert(prompt)
            let answer = try #require(answers[prompt])
            #expect(h.submit(step, ["IDToken1": .string(answer)]).body["tokenId"] != nil)
        }
        #expect(prompts.count == 2, "questions are picked at random")
        #expect(T.reachedMarker(h.submit(T.begin(h).body, ["IDToken1": "wrong"])))
    }

    @Test func kbaVerifyNeedsAUserWithEnoughAnswers() throws {
        let h = try T.harness(Self.kba)
        #expect(T.begin(h).status == 401, "demo has no KBA answers")
        Self.storeKba(h, [("What's your favorite color?", "Blue")])
        #expect(T.begin(h).status == 401, "one answer is fewer than minimumAnswersToDefine")
        #expect(T.begin(h, username: "nobody").status == 401)
    }

    @Test func emailTemplateSendsToTheUserOrNot() throws {
        let h = try T.harness([
            (
                "n", "EmailTemplateNode", ["EMAIL_SENT": T.success, "EMAIL_NOT_SENT": "marker"],
                ["emailTemplateName": "welcome", "emailAttribute": "mail", "identityAttribute": "userName"]
            )
        ])
        #expect(T.begin(h).body["tokenId"] != nil)
        let mail = try #require(h.am.outbox.lastEmail)
        #expect(
            mail.template == "welcome" && mail.to == "demo@example.com" && mail.username == "demo"
                && mail.journey == "T")
        #expect(T.reachedMarker(T.begin(h, username: "nobody")), "no address: EMAIL_NOT_SENT")
        #expect(throws: JourneyImport.Failure.self) {
            try AMExports.load([
                AMExports.tree("T", entry: "n", [("n", "EmailTemplateNode", ["EMAIL_SENT": T.success], [:])])
            ])
        }
    }

    @Test func aPersistentCookieCountsOnlyInTheJourneyThatSetIt() throws {
        let h = try T.harness([
            (
                "n", "PersistentCookieDecisionNode", ["true": T.failure, "false": "set"],
                ["persistentCookieName": "session-jwt"]
            ),
            (
                "set", "SetPersistentCookieNode", ["outcome": "ask"],
                ["persistentCookieName": "session-jwt", "idleTimeout": 1, "maxLife": 5]
            ),
            ("ask", "UsernameCollectorNode", ["outcome": "check"], [:]),
            (
                "check", "PersistentCookieDecisionNode", ["true": T.success, "false": "marker"],
                ["persistentCookieName": "session-jwt"]
            ),
        ])
        // No cookie at first (the bridge has no cookie jar), then the one just set is found.
        let ask = T.begin(h).body
        #expect(T.types(ask) == ["NameCallback"])
        #expect(h.submit(ask, ["IDToken1": "someone-else"]).body["tokenId"] != nil, "the cookie's user, demo, signs in")
        // A new journey does not see it: its first decision is false again (true would fail).
        #expect(T.types(T.begin(h).body) == ["NameCallback"])
    }
}
