import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// Trimmed journeys from Frodo's public e2e exports (`rockcarver/frodo-cli` test/e2e/exports,
/// under docs/examples/am-exports/frodo/) that use the platform nodes: which load as they are,
/// and which still need `--unknown-nodes scenario` for a node type AuthBridge does not run.
struct AMFrodoPlatformExportsTests {
    static func load(
        _ name: String, unknownAsScenario: Bool = false
    ) throws(JourneyImport.Failure) -> [JourneyDefinition] {
        try JourneyImport.load([AMExports.source("frodo/\(name)")], unknownAsScenario: unknownAsScenario, builtIn: [])
    }

    @Test(arguments: ["Agent", "Login", "amsterService"])
    func loadsWithoutUnknownNodes(_ name: String) throws {
        #expect(try Self.load(name).map(\.name) == [name])
    }

    /// Social Google (`SocialGoogleNode`) and PingOne Verify (`PingOneVerifyProofing`) are not run here.
    @Test(arguments: ["Google-AnonymousUser", "Google-DynamicAccountCreation", "IntervieweeFullVerification"])
    func needsTheScenarioFlagOnlyForItsThirdPartyNode(_ name: String) throws {
        do {
            _ = try Self.load(name)
            Issue.record("\(name) loaded without --unknown-nodes")
        } catch {
            #expect("\(error)".contains("SocialGoogleNode") || "\(error)".contains("PingOneVerifyProofing"), "\(error)")
        }
        #expect(try Self.load(name, unknownAsScenario: true).map(\.name) == [name])
    }

    @Test func googleAnonymousUserSignsInAsAnonymousWhenTheScenarioFindsNoAccount() throws {
        let h = Harness()
        for journey in try Self.load("Google-AnonymousUser", unknownAsScenario: true) { h.am.add(journey: journey) }
        try h.am.users.add(username: "anonymous", password: "not-used-by-anyone", attributes: [:])
        try h.am.setNodeOutcome(
            journey: "Google-AnonymousUser", node: "Google Social Authentication", outcome: "NO_ACCOUNT")
        let reply = h.start("Google-AnonymousUser")
        let token = try #require(reply.body["tokenId"]?.stringValue)
        #expect(h.am.sessions.find(token)?.username == "anonymous")
        #expect(reply.body["successUrl"] == "https://www.forgerock.com/", "the tree's Success URL")
    }

    @Test func intervieweeHttpClientTakesTheScenariosResponse() throws {
        let h = Harness()
        let journeys = try Self.load("IntervieweeFullVerification", unknownAsScenario: true)
        let rest = journeys[0].restNodes
        #expect(rest.count == 2)
        #expect(rest.allSatisfy { $0.outcomes == ["200", "NOMATCHRESPONSE", "ERROR"] })
        for journey in journeys { h.am.add(journey: journey) }
        try h.am.applyScenario([
            "journeys": [
                "IntervieweeFullVerification": [
                    "12f631e5-4a0f-41bd-9eea-ddbdfc4ceefc": ["response": ["status": 200, "body": [:]]]
                ]
            ]
        ])
    }
}
