import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// The HTTP Client node (`RESTNode`): its response comes from the scenario, never the network;
/// each outcome, what it writes to shared state, and the refusals of bad configs and scenarios.
struct AMRESTNodeTests {
    typealias T = AMMoreNodesTests
    typealias D = AMDirectoryDecisionTests

    static let config: JSONObject = [
        "restURL": "https://verify.example.com/${txId}/verifiedData", "requestMode": "GET", "bodyType": "JSON",
        "responseCodes": ["200", "4xx"], "statusCodeReturn": "httpStatus", "bodyReturn": "httpBody",
        "jpToSSMapper": [
            "selfie": "$._embedded.verifiedData[0].data.IMAGE", "all": "$._embedded.verifiedData[*].type",
        ],
        "jpToOutcomeMapper": [:],
    ]

    /// Username ("u"), then the HTTP Client named "Get Data" ("n"), each outcome to a marker but
    /// `200`, which goes on to success.
    static func harness(_ config: JSONObject = config) throws -> Harness {
        var nodes: [(id: String, type: String, connections: JSONObject, config: JSONObject)] = [
            ("u", "UsernameCollectorNode", ["outcome": "n"], [:])
        ]
        var connections = JSONObject()
        let outcomes =
            (config["responseCodes"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            + (config["jpToOutcomeMapper"]?.objectValue?.keys ?? []) + ["NOMATCHRESPONSE", "ERROR"]
        for outcome in outcomes {
            connections[outcome] = outcome == "200" ? T.success : .string("m-\(outcome)")
            if outcome != "200" { nodes.append(D.marker(outcome)) }
        }
        nodes.insert(("n", "RESTNode", connections, config), at: 1)
        var export = try JSONParser.parse(AMExports.tree("T", entry: "u", nodes))
        // The tree names the node, as an export does; the scenario may use the name.
        if case .object(var root) = export, case .object(var trees)? = root["trees"],
            case .object(var tree)? = trees["T"],
            case .object(var inner)? = tree["tree"], case .object(var graph)? = inner["nodes"],
            case .object(var node)? = graph["n"]
        {
            node["displayName"] = "Get Data"
            graph["n"] = .object(node)
            inner["nodes"] = .object(graph)
            tree["tree"] = .object(inner)
            trees["T"] = .object(tree)
            root["trees"] = .object(trees)
            export = .object(root)
        }
        let h = Harness()
        for journey in try AMExports.load([JSONWriter.compact(export)]) { h.am.add(journey: journey) }
        return h
    }

    static func respond(_ h: Harness, _ response: JSONValue, node: String = "Get Data") throws {
        try h.am.applyScenario(["journeys": ["T": [node: ["response": response]]]])
    }

    static let body: JSONValue = [
        "_embedded": [
            "verifiedData": [["type": "SELFIE", "data": ["IMAGE": "c2VsZmll"]], ["type": "PORTRAIT", "data": [:]]]
        ]
    ]

    @Test func aMatchingCodeGoesItsWayAndTheBodyFillsSharedState() throws {
        let h = try Self.harness()
        try Self.respond(h, ["status": 200, "body": Self.body])
        let context = try Self.run(h, .reply(status: 200, body: Self.body))
        #expect(context.shared["httpStatus"] == 200)
        #expect(context.shared["httpBody"] == .string(JSONWriter.compact(Self.body)))
        #expect(context.shared["selfie"] == "c2VsZmll")
        #expect(context.shared["all"] == ["SELFIE", "PORTRAIT"], "a wildcard gives the list")
        #expect(T.begin(h).body["tokenId"] != nil, "200 leads to success")
    }

    @Test func patternsNoMatchAndUnreachable() throws {
        let h = try Self.harness()
        try Self.respond(h, ["status": 404, "body": "not json"])
        #expect(D.prompt(T.begin(h)) == "4xx")
        try Self.respond(h, ["status": 503])
        #expect(D.prompt(T.begin(h)) == "NOMATCHRESPONSE")
        try Self.respond(h, ["unreachable": "connect timed out"])
        #expect(D.prompt(T.begin(h)) == "ERROR")
    }

    @Test func aStringBodyIsReadAsJSONWhenItIsAndAMissingPathIsSkipped() throws {
        let h = try Self.harness()
        let context = try Self.run(h, .reply(status: 200, body: "{\"_embedded\":{\"verifiedData\":[]}}"))
        #expect(context.shared["httpBody"] == "{\"_embedded\":{\"verifiedData\":[]}}", "the text as it came")
        #expect(context.shared["selfie"] == nil)
        #expect(context.shared["all"] == [])
    }

    @Test func jsonPathOutcomesOverrideTheCode() throws {
        var config = Self.config
        config["jpToOutcomeMapper"] = ["hasSelfie": "$[*]._embedded.verifiedData[*].data.IMAGE"]
        let h = try Self.harness(config)
        try Self.respond(h, ["status": 200, "body": Self.body])
        #expect(D.prompt(T.begin(h)) == "hasSelfie")
        try Self.respond(h, ["status": 200, "body": ["_embedded": ["verifiedData": []]]])
        #expect(T.begin(h).body["tokenId"] != nil, "no match: the code decides")
    }

    @Test func withoutAResponseTheJourneyFailsLoudly() throws {
        let h = try Self.harness()
        #expect(T.begin(h).status == 401)
    }

    @Test func badConfigsAreRefusedAtLoad() {
        let bad: [(String, JSONValue)] = [
            ("requestMode", "FETCH"), ("jpToSSMapper", ["x": "$..deep"]), ("jpToSSMapper", ["x": "name"]),
            ("jpToOutcomeMapper", ["ok": "$[?(@.ok)]"]), ("responseCodes", ["ERROR"]), ("headersMap", ["a": 1]),
        ]
        for (key, value) in bad {
            var config = Self.config
            config[key] = value
            #expect(throws: (any Error).self, "\(key): \(value)") { try Self.harness(config) }
        }
    }

    @Test func badScenarioResponsesAreRefusedNamingTheNode() throws {
        let h = try Self.harness()
        for (response, node) in [
            (["status": 42] as JSONValue, "Get Data"), (["status": 200, "extra": 1], "Get Data"),
            (["unreachable": 5], "Get Data"), (["status": 200], "u"), (["status": 200], "Nope"),
        ] {
            #expect(throws: ScenarioError.self, "\(response) for \(node)") { try Self.respond(h, response, node: node) }
        }
    }

    @Test func jsonPathReadsJaywaysSelectors() throws {
        let doc: JSONValue = ["a": ["b": [10, 20, 30]], "c d": true]
        #expect(try JSONPathQuery("$.a.b[1]").evaluate(doc) == 20)
        #expect(try JSONPathQuery("$.a.b[-1]").evaluate(doc) == 30)
        #expect(try JSONPathQuery("$['c d']").evaluate(doc) == true)
        #expect(try JSONPathQuery("$.a.*").evaluate(doc) == [[10, 20, 30]])
        #expect(try JSONPathQuery("$.x").evaluate(doc) == nil)
        #expect(try JSONPathQuery("$").evaluate(doc) == doc)
        for text in ["a.b", "$.", "$[", "$['a]", "$[1:2]", "$['a','b']", String(repeating: ".a", count: 600)] {
            #expect(throws: JSONPathQuery.ParseError.self, "\(text.prefix(20))") { try JSONPathQuery("$" + text) }
        }
    }

    /// Runs the node "n" of "T" once with `response` and returns the context it left.
    static func run(_ h: Harness, _ response: ScenarioResponse) throws -> NodeContext {
        let node = try #require(h.am.journey(named: "T")?.nodes["n"]?.node as? AM.RESTNode)
        let book = ScenarioBook()
        book.set(response, journey: "T", node: "n")
        var withScenario = NodeContext(
            nodeId: "n", journeyName: "T", entry: .arrived, shared: [:], transient: [:], nodeState: [:],
            failureMessage: nil, failureDetail: [:], suspension: nil, noSession: false, users: h.am.users,
            sessions: h.am.sessions, push: h.am.push, clock: h.clock, random: SeededRandomSource(seed: 5),
            config: h.am.config,
            outbox: h.am.outbox, scenario: book)
        _ = node.process(&withScenario)
        return withScenario
    }
}
