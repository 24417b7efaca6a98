import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's PingOne Protect nodes on the example `protect/ProtectLogin` export: Initialize sends its
/// callback and reads the client's error, Evaluation's risk is the scenario's (failure without
/// one, as when PingOne does not answer), Result notes the status.
struct PingOneProtectNodeTests {
    private func harness() throws -> Harness {
        let h = Harness()
        for journey in try JourneyImport.load([AMExports.source("protect/ProtectLogin")], builtIn: []) {
            h.am.add(journey: journey)
        }
        return h
    }

    /// Signs in and returns the Initialize step.
    private func initialize(_ h: Harness) -> JSONValue {
        h.submit(h.start("ProtectLogin").body, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body
    }

    @Test func theInitializeCallbackCarriesTheSignalsSettingsAndAClientErrorFailsIt() throws {
        let h = try harness()
        let step = initialize(h)
        let callback = try #require(step["callbacks"]?[0])
        #expect(callback["type"] == "PingOneProtectInitializeCallback")
        #expect(callback["output"]?[0] == ["name": "envId", "value": "protect-worker"])
        #expect(callback["input"] == [["name": "IDToken1clientError", "value": ""]])
        #expect(h.submit(step, ["IDToken1clientError": "no signals"]).status == 401)
    }

    @Test func theScenarioChoosesTheRiskAndWithoutOneTheEvaluationFails() throws {
        let h = try harness()
        #expect(h.am.hasScenarioNodes)
        let evaluation = h.submit(initialize(h), [:]).body
        #expect(evaluation["callbacks"]?[0]?["type"] == "PingOneProtectEvaluationCallback")
        #expect(evaluation["callbacks"]?[0]?["output"] == [["name": "pauseBehavioralData", "value": true]])
        #expect(h.submit(evaluation, [:]).status == 401, "no risk chosen: failure, the FAILED result")

        try h.am.setNodeOutcome(journey: "ProtectLogin", node: "PingOne Protect Evaluation", outcome: "low")
        #expect(h.submit(h.submit(initialize(h), [:]).body, ["IDToken1signals": "s"]).body["tokenId"] != nil)
        let clientError = h.submit(h.submit(initialize(h), [:]).body, ["IDToken1clientError": "no data"])
        #expect(clientError.status == 401, "a client error is its own outcome, whatever the scenario says")
        #expect(throws: ScenarioError.self) {
            try h.am.setNodeOutcome(journey: "ProtectLogin", node: "PingOne Protect Evaluation", outcome: "maybe")
        }
    }
}
