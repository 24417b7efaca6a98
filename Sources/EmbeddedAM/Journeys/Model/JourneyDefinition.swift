import AuthBridgeCore

/// A journey as data, modelled on AM trees: named nodes, each with a type, its settings, and
/// outcomes that name the next node (docs/journeys.md, protocol/schema/journeys.schema.json).
/// AuthBridge's JSON (`Formats/JourneyFile.swift`) builds it; the built-ins are written in it.
public struct JourneyDefinition: Sendable {
    public var name: String
    public var entry: String
    /// AM's tree "max duration": how long the whole journey may take, in seconds.
    public var timeout: Double
    var nodes: [String: Node]
    /// The nodes that end the tree, true for success: where an inner tree returns to the tree
    /// that entered it.
    var ends: [String: Bool] = [:]

    /// A node in its journey: what it does, and where each outcome leads.
    struct Node: Sendable {
        var id: String
        /// Its type as the file that defined it names it (`retryLimit`, `RetryLimitDecisionNode`).
        var type: String
        var node: any JourneyNode
        /// Outcome id → node id.
        var outcomes: [String: String]
        /// The file's names for its outcomes, by outcome id, when they differ (AuthBridge's JSON
        /// calls `Retry` `retry`): errors use them.
        var outcomeNames: [String: String] = [:]
        /// The name the tree's author gave it (AM's `displayName`), for scenarios and errors.
        var displayName: String? = nil
        /// The file's node it was written as, when that has another id (a chain's later nodes).
        var fileNode: String? = nil

        /// How a failure record names it.
        var ref: JourneyFailure.NodeRef { JourneyFailure.NodeRef(id: fileNode ?? id, type: type, name: displayName) }
    }

    public struct DefinitionError: Error, Equatable, Sendable, CustomStringConvertible {
        public var journey: String
        public var node: String?
        public var reason: String
        /// The node's type, when the journey came from an AM export (node ids there are UUIDs).
        public var nodeType: String? = nil

        public var description: String {
            if let node, let nodeType { return "journey \"\(journey)\", node \"\(node)\" (\(nodeType)): \(reason)" }
            if let node { return "journey \"\(journey)\", node \"\(node)\": \(reason)" }
            return "journey \"\(journey)\": \(reason)"
        }
    }

    /// Checks the graph: the entry exists, every outcome is wired to a node that exists. `list`
    /// is in the file's order, the order mistakes are looked for in; a later node with the id of
    /// an earlier one replaces it.
    init(name: String, entry: String, timeout: Double, nodes list: [Node]) throws(DefinitionError) {
        (self.name, self.entry, self.timeout) = (name, entry, timeout)
        var nodes: [String: Node] = [:]
        for node in list { nodes[node.id] = node }
        guard nodes[entry] != nil else {
            throw DefinitionError(journey: name, node: nil, reason: "entry node \"\(entry)\" does not exist")
        }
        for id in list.map(\.id) {
            let node = nodes[id]!
            let fileNode = node.fileNode ?? node.id
            for outcome in node.node.outcomes where node.outcomes[outcome] == nil {
                throw DefinitionError(
                    journey: name, node: fileNode,
                    reason: "missing outcome \"\(node.outcomeNames[outcome] ?? outcome)\"")
            }
            for (outcome, target) in node.outcomes.map({ (node.outcomeNames[$0.key] ?? $0.key, $0.value) }).sorted(by: {
                $0.0 < $1.0
            })
            where nodes[target] == nil {
                throw DefinitionError(
                    journey: name, node: fileNode, reason: "outcome \"\(outcome)\" leads to unknown node \"\(target)\"")
            }
        }
        self.nodes = nodes
        for (id, node) in nodes where node.node is AM.SuccessNode || node.node is AM.FailureNode {
            ends[id] = node.node is AM.SuccessNode
        }
    }
}
