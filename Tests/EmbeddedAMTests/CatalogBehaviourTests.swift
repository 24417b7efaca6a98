import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// The behaviours of AuthBridge's journey JSON that changed when its node types became a second
/// syntax for AM's nodes: where the built-in node and AM's disagreed, AM's behaviour is kept.
@Suite struct CatalogBehaviourTests {
    static func journey(_ nodes: String, entry: String = "who") throws -> JourneyDefinition {
        try JourneyDefinition(
            json: try JSONParser.parse(
                #"{"name":"T","entry":"\#(entry)","nodes":{\#(nodes),"ok":{"type":"success"},"no":{"type":"failure"}}}"#
            ))
    }

    static let who =
        #""who":{"type":"page","callbacks":[{"type":"NameCallback"},{"type":"PasswordCallback"}],"outcomes":{"next":"check"}}"#

    /// The built-in Retry Limit kept `retryCount.<node>` in shared state; AM's counts in node
    /// state, for the journey only: a journey cannot read it, and the next one starts again.
    @Test func aRetryLimitNotSavedToTheUserCountsForTheJourneyInNodeState() throws {
        let harness = Harness()
        harness.am.add(
            journey: try Self.journey(
                #"""
                \#(Self.who),
                "check":{"type":"dataStoreDecision","outcomes":{"true":"read","false":"retry"}},
                "retry":{"type":"retryLimit","retryLimit":2,"saveToUser":false,"outcomes":{"retry":"who","reject":"no"}},
                "read":{"type":"valueDecision","sharedState":"retryCount","outcomes":{"true":"no","false":"ok"}}
                """#))
        var step = harness.start("T")
        for _ in 0..<2 {
            step = harness.submit(step.body, ["IDToken1": "demo", "IDToken2": "wrong"])
            #expect(step.status == 200)
        }
        // The count is not in shared state: the right password now reaches success.
        #expect(harness.submit(step.body, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body["tokenId"] != nil)
        step = harness.start("T")
        for _ in 0..<2 { step = harness.submit(step.body, ["IDToken1": "demo", "IDToken2": "wrong"]) }
        #expect(harness.submit(step.body, ["IDToken1": "demo", "IDToken2": "wrong"]).body == AMErrors.loginFailure)
        #expect(harness.am.users.find(username: "demo")?.counters == [:])
    }

    /// The built-in Account Lockout went on when there was no such user; AM's fails the journey.
    @Test func lockingAnUnknownUserFails() throws {
        let harness = Harness()
        harness.am.add(
            journey: try Self.journey(
                #"""
                "who":{"type":"page","callbacks":[{"type":"NameCallback"}],"outcomes":{"next":"lock"}},
                "lock":{"type":"accountLockout","outcomes":{"next":"ok"}}
                """#))
        #expect(harness.submit(harness.start("T").body, ["IDToken1": "nobody"]).body == AMErrors.loginFailure)
    }

    /// The built-in Suspend "e-mailed" the link to an empty address; AM's suspends and sends nothing.
    @Test func suspendingForAnUnknownUserSendsNoLink() throws {
        let harness = Harness()
        let step = harness.start("EmailSuspend")
        let suspended = harness.submit(step.body, ["IDToken1": "nobody"])
        #expect(suspended.body["callbacks"]?[0]?["type"] == "SuspendedTextOutputCallback")
        #expect(harness.am.outbox.lastSuspendLink == nil)
    }

    /// The built-in nodes also wrote what was answered to shared state (`choice`, `deviceProfile`,
    /// and likewise `oneTimePassword` and `pollingExit`); AM's do not, so a journey reading them
    /// finds nothing. AM's Device Profile Collector keeps the profile under its own key.
    @Test func answersAMsNodesDoNotKeepAreNotInSharedState() throws {
        let harness = Harness()
        harness.am.add(
            journey: try Self.journey(
                #"""
                "who":{"type":"page","callbacks":[{"type":"NameCallback"}],"outcomes":{"next":"pick"}},
                "pick":{"type":"choiceCollector","prompt":"Pick","choices":["a","b"],"outcomes":{"a":"profile","b":"profile"}},
                "profile":{"type":"deviceProfile","outcomes":{"collected":"c"}},
                "c":{"type":"valueDecision","sharedState":"choice","outcomes":{"true":"no","false":"d"}},
                "d":{"type":"valueDecision","sharedState":"deviceProfile","outcomes":{"true":"no","false":"ok"}}
                """#))
        let pick = harness.submit(harness.start("T").body, ["IDToken1": "demo"])
        let choice = harness.submit(pick.body, ["IDToken1": 1])
        #expect(choice.body["callbacks"]?[0]?["type"] == "DeviceProfileCallback")
        let profile: JSONValue = #"{"identifier":"x","metadata":{},"location":{}}"#
        #expect(harness.submit(choice.body, ["IDToken1": profile]).body["tokenId"] != nil)
    }

    /// AM's Create Object keeps the accepted terms with the user it creates.
    @Test func registrationKeepsTheAcceptedTermsOnTheUser() {
        let harness = Harness()
        let step = harness.start("Registration")
        let done = harness.submit(
            step.body,
            [
                "IDToken1": "ada", "IDToken2": "Ada", "IDToken3": "Lovelace", "IDToken4": "ada@example.com",
                "IDToken7": "An4lytical!",
                "IDToken8question": "What's your favorite color?", "IDToken8answer": "blue",
                "IDToken9question": "Who was your first employer?", "IDToken9answer": "Babbage", "IDToken10": true,
            ])
        #expect(done.body["tokenId"] != nil)
        #expect(harness.am.users.find(username: "ada")?.attributes["termsAccepted"] == true)
    }

    /// AM's Polling Wait waits whole seconds.
    @Test func aPollingWaitOfAFractionOfASecondIsRefused() {
        do {
            _ = try NodeRegistry.node(
                id: "w", json: ["type": "pollingWait", "seconds": 1.5, "outcomes": ["done": "x"]])
            Issue.record("accepted 1.5 s")
        } catch {
            #expect(error.reason == #""seconds" must be an integer from 1 to 3600"#)
        }
    }
}
