import AuthBridgeCore

/// The outcomes a scenario chose for nodes AuthBridge cannot run (`--scenario FILE`,
/// `emulator.setNodeOutcome`), by journey, then by node id or the node's display name. Every
/// choice is checked against the loaded journeys when it is made, so a typo is an error then,
/// not a silent miss later.
final class ScenarioBook: JourneyScenario {
    private var choices: [String: [String: ScenarioChoice]] = [:]
    private var responses: [String: [String: ScenarioResponse]] = [:]

    func choice(journey: String, node: String, displayName: String?) -> ScenarioChoice? {
        guard let byNode = choices[journey] else { return nil }
        return byNode[node] ?? displayName.flatMap { byNode[$0] }
    }

    func set(_ choice: ScenarioChoice, journey: String, node: String) { choices[journey, default: [:]][node] = choice }

    func response(journey: String, node: String, displayName: String?) -> ScenarioResponse? {
        guard let byNode = responses[journey] else { return nil }
        return byNode[node] ?? displayName.flatMap { byNode[$0] }
    }

    func set(_ response: ScenarioResponse, journey: String, node: String) {
        responses[journey, default: [:]][node] = response
    }
}

/// A scenario choice that does not fit the journeys loaded: which argument, and why.
public struct ScenarioError: Error, Equatable, Sendable {
    public var param: String
    public var reason: String
}

extension JourneyEngine {
    /// The node a scenario names (by id, else display name) among the nodes it can decide, with
    /// the id it is found under.
    func scenarioNode(journey name: String, node: String) throws(ScenarioError) -> (key: String, node: ScenarioDecided)
    {
        try find(node, in: name, what: "whose outcome a scenario decides") { $0.scenarioNodes }
    }

    /// The HTTP Client node a scenario's response names (by id, else display name).
    func restNode(journey name: String, node: String) throws(ScenarioError) -> (key: String, node: AM.RESTNode) {
        try find(node, in: name, what: "that is an HTTP Client (RESTNode)") { $0.restNodes }
    }

    private func find<Node: ScenarioNamed>(
        _ node: String, in name: String, what: String, _ among: (JourneyDefinition) -> [Node]
    ) throws(ScenarioError) -> (key: String, node: Node) {
        guard let journey = journeys.named(name) else {
            throw ScenarioError(
                param: "journey",
                reason: "no journey named \(name) (available: \(journeys.names.joined(separator: ", ")))")
        }
        let deciding = among(journey)
        if let found = deciding.first(where: { $0.nodeId == node }) { return (node, found) }
        let named = deciding.filter { $0.displayName == node }
        if named.count == 1 { return (node, named[0]) }
        if named.count > 1 {
            throw ScenarioError(
                param: "node",
                reason:
                    "journey \(name) has \(named.count) nodes named \"\(node)\" \(what); name one by id (\(named.map(\.nodeId).sorted().joined(separator: ", ")))"
            )
        }
        let list = deciding.map { node in node.displayName.map { "\(node.nodeId) \"\($0)\"" } ?? node.nodeId }.sorted()
        throw ScenarioError(
            param: "node",
            reason:
                "journey \(name) has no node \"\(node)\" \(what) (by id or display name)\(list.isEmpty ? "; it has none" : ": \(list.joined(separator: ", "))")"
        )
    }

    func choose(journey: String, node: String, choice: ScenarioChoice) throws(ScenarioError) {
        let found = try scenarioNode(journey: journey, node: node)
        guard found.node.outcomes.contains(choice.outcome) else {
            throw ScenarioError(
                param: "outcome",
                reason:
                    "node \"\(node)\" of journey \(journey) has no outcome \"\(choice.outcome)\" (its outcomes: \(found.node.outcomes.joined(separator: ", ")))"
            )
        }
        book().set(choice, journey: journey, node: found.key)
    }

    func respond(journey: String, node: String, response: ScenarioResponse) throws(ScenarioError) {
        let found = try find(node, in: journey, what: "that is an HTTP Client (RESTNode) or a Social Provider Handler")
        {
            $0.restNodes.map(ScenarioDecided.init(target:)) + $0.socialProviderNodes.map(ScenarioDecided.init(target:))
        }
        book().set(response, journey: journey, node: found.key)
    }

    /// The scenario's book, made on the first choice.
    private func book() -> ScenarioBook {
        if let existing = scenario as? ScenarioBook { return existing }
        let book = ScenarioBook()
        scenario = book
        return book
    }
}

extension JourneyDefinition {
    /// The nodes whose outcome a scenario decides (`ScenarioChosen`), page children included.
    var scenarioNodes: [ScenarioDecided] {
        nodes.values.flatMap { node -> [Any] in (node.node as? AM.PageNode)?.children ?? [node.node] }
            .compactMap { ($0 as? any ScenarioChosen).map(ScenarioDecided.init(chosen:)) }
    }

    /// The HTTP Client nodes, whose responses a scenario gives.
    var restNodes: [AM.RESTNode] { nodes.values.compactMap { $0.node as? AM.RESTNode } }
}

/// A node a scenario names: by its id, or the name its tree gives it.
protocol ScenarioNamed {
    var nodeId: String { get }
    var displayName: String? { get }
}

/// A node whose outcome a scenario chooses, because AuthBridge cannot run what decides it: a
/// script, or PingOne Protect's risk evaluation.
protocol ScenarioChosen: ScenarioNamed {
    var outcomes: [String] { get }
}

/// A node a scenario names, as its lookups see it: its id and display name, and, for a node
/// whose outcome the scenario chooses, the outcomes it may choose from (empty for a node the
/// scenario gives a response to).
struct ScenarioDecided: ScenarioNamed {
    var nodeId: String
    var displayName: String?
    var outcomes: [String] = []
}

extension ScenarioDecided {
    init(chosen node: any ScenarioChosen) {
        self.init(nodeId: node.nodeId, displayName: node.displayName, outcomes: node.outcomes)
    }

    /// A node a scenario's response is for, whatever its type.
    init(target node: some ScenarioNamed) {
        self.init(nodeId: node.nodeId, displayName: node.displayName)
    }
}

extension AM.ScenarioNode: ScenarioChosen {}
extension AM.PingOneProtectEvaluationNode: ScenarioChosen {}
extension AM.RESTNode: ScenarioNamed {}
