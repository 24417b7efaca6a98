import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM / Frodo exports: detection by content, the platform journeys run as AM runs them, inner
/// trees as frames, and every bad input stopped with the file, tree, node and reason.
struct AMExportTests {
    @Test func platformLoginRendersTheSignInPageAndLogsIn() throws {
        let h = try AMExports.harness()
        let step = h.start("Login").body
        #expect(step["header"] == "Sign In")
        #expect(step["stage"] == nil)
        #expect(step["callbacks"]?[0]?["type"] == "NameCallback")
        #expect(step["callbacks"]?[0]?["output"]?[0]?["value"] == "User Name")
        #expect(step["callbacks"]?[1]?["type"] == "PasswordCallback")
        let done = h.submit(step, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"])
        #expect(done.status == 200)
        #expect(done.body["tokenId"] != nil)
        #expect(h.am.users.find(username: "demo")?.loginCount == 1)
    }

    @Test func retryLimitAllowsFiveRetriesThenLocks() throws {
        let h = try AMExports.harness()
        var step = h.start("Login").body
        for _ in 0..<5 {
            let reply = h.submit(step, ["IDToken1": "demo", "IDToken2": "wrong"])
            #expect(reply.status == 200, "a retry shows the page again")
            step = reply.body
        }
        #expect(h.submit(step, ["IDToken1": "demo", "IDToken2": "wrong"]).status == 401)
        #expect(h.am.users.find(username: "demo")?.lock != nil)
        // Locked: the Identity Store Decision's LOCKED outcome leads to failure, right password or not.
        #expect(h.submit(h.start("Login").body, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).status == 401)
    }

    @Test func theThirdLoginEntersProgressiveProfileAsAnInnerTree() throws {
        let h = try AMExports.harness()
        for _ in 0..<2 { _ = h.submit(h.start("Login").body, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]) }
        let page = h.submit(h.start("Login").body, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"])
        #expect(page.body["header"] == "Please select your preferences")
        #expect(page.body["callbacks"]?[0]?["type"] == "BooleanAttributeInputCallback")
        #expect(page.body["callbacks"]?[0]?["output"]?[3]?["value"] == .object([:]), "no validation: policies {}")
        let done = h.submit(page.body, ["IDToken1": true, "IDToken2": false])
        #expect(done.body["tokenId"] != nil)
        #expect(h.am.users.find(username: "demo")?.attributes["preferences"] == ["updates": true, "marketing": false])
    }

    @Test func registrationCreatesTheUserWithHashedKbaAndTerms() throws {
        let h = try AMExports.harness()
        let page = h.start("Registration").body
        let types = page["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
        #expect(
            types == [
                "ValidatedCreateUsernameCallback", "StringAttributeInputCallback", "StringAttributeInputCallback",
                "StringAttributeInputCallback",
                "BooleanAttributeInputCallback", "BooleanAttributeInputCallback", "ValidatedCreatePasswordCallback",
                "KbaCreateCallback",
                "KbaCreateCallback", "TermsAndConditionsCallback",
            ])
        var values: [String: JSONValue] = [
            "IDToken1": "newbie", "IDToken2": "New", "IDToken3": "Bie", "IDToken4": "newbie@example.com",
            "IDToken7": "weak",
            "IDToken8question": "What's your favorite color?", "IDToken8answer": "Blue",
            "IDToken9question": "Who was your first employer?",
            "IDToken9answer": "Acme", "IDToken10": true,
        ]
        let again = h.submit(page, values)
        #expect(again.status == 200)
        #expect(
            again.body["callbacks"]?[6]?["output"]?[2]?["value"]?.arrayValue?.isEmpty == false,
            "the weak password failed a policy")
        values["IDToken7"] = "Str0ngPassword"
        let done = h.submit(again.body, values)
        #expect(done.body["tokenId"] != nil)
        let user = h.am.users.find(username: "newbie")
        #expect(user?.attributes["mail"] == "newbie@example.com")
        #expect(user?.attributes["termsAccepted"]?["termsVersion"] == "0.0")
        #expect(user?.attributes["kbaInfo"]?[0]?["answer"]?["$crypto"] != nil)
        #expect(user?.password.matches("Str0ngPassword") == true)
    }

    @Test func resetPasswordSuspendsResumesAndPatchesThePassword() throws {
        let h = try AMExports.harness()
        let suspended = h.submit(h.start("ResetPassword").body, ["IDToken1": "demo@example.com"])
        #expect(suspended.body["callbacks"]?[0]?["type"] == "SuspendedTextOutputCallback")
        let link = try #require(h.am.outbox.lastSuspendLink)
        #expect(link.to == "demo@example.com")
        let page = h.am.authenticate(AuthenticateRequest(suspendedId: link.suspendedId))
        #expect(page.body["header"] == "Reset Password")
        #expect(h.submit(page.body, ["IDToken1": "N3wPassword"]).body["tokenId"] != nil)
        #expect(h.am.users.verify(username: "demo", password: "N3wPassword") != nil)
    }

    @Test func anUnknownAddressSuspendsWithoutSendingAnything() throws {
        let h = try AMExports.harness()
        let suspended = h.submit(h.start("ForgottenUsername").body, ["IDToken1": "nobody@example.com"])
        #expect(suspended.body["callbacks"]?[0]?["type"] == "SuspendedTextOutputCallback")
        #expect(h.am.outbox.lastSuspendLink == nil)
    }

    @Test func updatePasswordNeedsTheCallersSession() throws {
        let h = try AMExports.harness()
        #expect(h.start("UpdatePassword").status == 401, "no session: no user for Attribute Present Decision")
        let token = try #require(
            h.submit(h.start("Login").body, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body["tokenId"]?.stringValue)
        let current = h.am.authenticate(
            AuthenticateRequest(authIndexType: "service", authIndexValue: "UpdatePassword", ssoToken: token))
        #expect(current.body["header"] == "Verify Existing Password")
        let next = h.submit(current.body, ["IDToken1": "Ch4ng3it!"])
        #expect(next.body["header"] == "Update Password")
        #expect(h.submit(next.body, ["IDToken1": "Upd4tedPass"]).body["tokenId"] != nil)
        #expect(h.am.users.verify(username: "demo", password: "Upd4tedPass") != nil)
    }

    // MARK: bad input

    @Test func badInputStopsTheLoadNamingFileTreeNodeAndReason() {
        let cases: [(String, String)] = [
            ("{\"hello\": 1}", "t0.json is invalid: it is neither AuthBridge's journey JSON"),
            (
                AMExports.tree(
                    "T", entry: "a",
                    [("a", "DataStoreDecisionNode", ["true": "nowhere", "false": .string(AMExports.failure)], [:])]),
                "journey \"T\", node \"a\" (DataStoreDecisionNode): outcome \"true\" leads to \"nowhere\""
            ),
            (
                AMExports.tree(
                    "T", entry: "a",
                    [
                        (
                            "a", "RetryLimitDecisionNode", ["Retry": "a", "Reject": .string(AMExports.failure)],
                            ["retryLimit": "five"]
                        )
                    ]),
                "node \"a\" (RetryLimitDecisionNode): \"retryLimit\" must be an integer"
            ),
            (
                AMExports.tree(
                    "T", entry: "a",
                    [
                        ("a", "IncrementLoginCountNode", ["outcome": "b"], [:]),
                        ("b", "IncrementLoginCountNode", ["outcome": "a"], [:]),
                    ]), "the nodes a → b → a form a loop in which no node asks for input"
            ),
            (
                AMExports.tree("T", entry: "a", [("a", "FancyNode", ["outcome": .string(AMExports.success)], [:])]),
                "node \"a\" (FancyNode): AuthBridge does not know this node type; start with --unknown-nodes scenario"
            ),
            (
                AMExports.tree(
                    "T", entry: "a",
                    [
                        (
                            "a", "InnerTreeEvaluatorNode",
                            ["true": .string(AMExports.success), "false": .string(AMExports.failure)], ["tree": "Nope"]
                        )
                    ]),
                "its inner tree \"Nope\" is not loaded"
            ),
        ]
        for (text, expected) in cases {
            do {
                _ = try AMExports.load([text])
                Issue.record("loaded: \(expected)")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
            }
        }
    }

    @Test func innerTreesThatEnterEachOtherAreRefused() {
        let a = AMExports.tree(
            "A", entry: "x",
            [
                (
                    "x", "InnerTreeEvaluatorNode",
                    ["true": .string(AMExports.success), "false": .string(AMExports.failure)], ["tree": "B"]
                )
            ])
        let b = AMExports.tree(
            "B", entry: "y",
            [
                (
                    "y", "InnerTreeEvaluatorNode",
                    ["true": .string(AMExports.success), "false": .string(AMExports.failure)], ["tree": "A"]
                )
            ])
        #expect(throws: JourneyImport.Failure.self) { try AMExports.load([a, b]) }
        do {
            _ = try AMExports.load([a, b])
        } catch {
            #expect(error.description.contains("inner trees enter each other in a loop (A → B → A)"))
        }
    }

    @Test func aRESTTreeExportTakesNodeConfigsFromOtherFiles() throws {
        let tree =
            "{\"_id\":\"Rest\",\"entryNodeId\":\"u\",\"nodes\":{\"u\":{\"nodeType\":\"UsernameCollectorNode\",\"connections\":{\"outcome\":\"c\"}},\"c\":{\"nodeType\":\"AttributeCollectorNode\",\"connections\":{\"outcome\":\"\(AMExports.success)\"}}}}"
        let config = "{\"_id\":\"c\",\"_type\":{\"_id\":\"AttributeCollectorNode\"},\"attributesToCollect\":[\"mail\"]}"
        let journeys = try AMExports.load([tree, config])
        #expect(journeys.map(\.name) == ["Rest"])
        // Without the config file the Attribute Collector has no attributes to collect.
        #expect(throws: JourneyImport.Failure.self) { try AMExports.load([tree]) }
    }
}
