import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// Nodes AuthBridge cannot run never pick a path by themselves: the scenario chooses, by node id
/// or display name, and without a choice the journey fails.
struct AMScenarioTests {
    private func harness() throws -> Harness {
        let h = Harness()
        for journey in try JourneyImport.load([AMExports.source("Examples")], builtIn: []) {
            h.am.add(journey: journey)
        }
        return h
    }

    private func vipLogin(_ h: Harness) -> ServerReply {
        let name = h.start("VipLogin").body
        return h.submit(h.submit(name, ["IDToken1": "demo"]).body, ["IDToken1": "Ch4ng3it!"])
    }

    @Test func withoutAChoiceTheScriptFailsTheJourney() throws {
        let h = try harness()
        #expect(h.am.hasScenarioNodes)
        let reply = vipLogin(h)
        #expect(reply.status == 401)
        #expect(reply.body["message"] == "Login failure")
    }

    @Test func aChoiceByDisplayNameOrIdIsTaken() throws {
        let h = try harness()
        try h.am.setNodeOutcome(journey: "VipLogin", node: "Check VIP", outcome: "vip")
        #expect(vipLogin(h).body["tokenId"] != nil)
        let id = try #require(h.am.journey(named: "VipLogin")?.scenarioNodes.first?.nodeId)
        try h.am.setNodeOutcome(journey: "VipLogin", node: id, outcome: "regular")
        #expect(vipLogin(h).status == 401, "the choice by id wins over the one by name")
    }

    @Test func aScenarioFileMayGiveTheScriptCallbacks() throws {
        let h = try harness()
        try h.am.applyScenario(
            try JSONParser.parse(
                """
                {"journeys": {"VipLogin": {"Check VIP": {"outcome": "vip", "callbacks": [{"type": "HiddenValueCallback", "id": "vipToken"}]}}}}
                """))
        let name = h.start("VipLogin").body
        let hidden = h.submit(h.submit(name, ["IDToken1": "demo"]).body, ["IDToken1": "Ch4ng3it!"])
        #expect(hidden.body["callbacks"]?[0]?["type"] == "HiddenValueCallback")
        #expect(h.submit(hidden.body, ["IDToken1": "abc"]).body["tokenId"] != nil)
    }

    @Test func choicesThatFitNoNodeAreRefusedNamingWhy() throws {
        let h = try harness()
        #expect(
            throws: ScenarioError(
                param: "journey",
                reason: "no journey named Nope (available: \(h.am.journeyNames.joined(separator: ", ")))")
        ) {
            try h.am.setNodeOutcome(journey: "Nope", node: "x", outcome: "y")
        }
        do {
            try h.am.setNodeOutcome(journey: "VipLogin", node: "Check VIP", outcome: "gold")
            Issue.record("accepted an outcome the node does not have")
        } catch {
            #expect(error.param == "outcome")
            #expect(error.reason.contains("(its outcomes: vip, regular)"))
        }
        do {
            try h.am.setNodeOutcome(journey: "VipLogin", node: "Data Store Decision", outcome: "true")
            Issue.record("accepted a node that runs by itself")
        } catch {
            #expect(error.param == "node")
        }
    }

    @Test func unknownNodeTypesLoadAsScenarioNodesWhenAskedTo() throws {
        let text = AMExports.tree(
            "T", entry: "a",
            [("a", "designer-1234", ["yes": .string(AMExports.success), "no": .string(AMExports.failure)], [:])])
        let journeys = try AMExports.load([text], unknownAsScenario: true)
        #expect(journeys[0].scenarioNodes.first?.outcomes.sorted() == ["no", "yes"])
    }
}
