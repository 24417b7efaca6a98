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
        /// The registry name of its type (`dataStoreDecision`).
        var type: String
        var node: any JourneyNode
        /// Outcome → node id. Unwired optional outcomes lead where their fallback leads.
        var outcomes: [String: String]
        /// The name the tree's author gave it (AM's `displayName`), for scenarios and errors.
        var displayName: String? = nil
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

    /// Checks the graph — the entry exists, every outcome is wired to a node that exists — and
    /// wires unwired optional outcomes to their fallbacks. `list` is in the file's order, the
    /// order mistakes are looked for in; a later node with the id of an earlier one replaces it.
    init(name: String, entry: String, timeout: Double, nodes list: [Node]) throws(DefinitionError) {
        (self.name, self.entry, self.timeout) = (name, entry, timeout)
        var nodes: [String: Node] = [:]
        for node in list { nodes[node.id] = node }
        guard nodes[entry] != nil else {
            throw DefinitionError(journey: name, node: nil, reason: "entry node \"\(entry)\" does not exist")
        }
        for id in list.map(\.id) {
            let node = nodes[id]!
            for outcome in node.node.outcomes where node.outcomes[outcome] == nil && node.node.outcomeFallbacks[outcome] == nil {
                throw DefinitionError(journey: name, node: node.id, reason: "missing outcome \"\(outcome)\"")
            }
            for (outcome, target) in node.outcomes.sorted(by: { $0.key < $1.key }) where nodes[target] == nil {
                throw DefinitionError(journey: name, node: node.id, reason: "outcome \"\(outcome)\" leads to unknown node \"\(target)\"")
            }
        }
        for id in nodes.keys {
            for (outcome, fallback) in nodes[id]!.node.outcomeFallbacks where nodes[id]!.outcomes[outcome] == nil {
                nodes[id]!.outcomes[outcome] = nodes[id]!.outcomes[fallback]
            }
        }
        self.nodes = nodes
        for (id, node) in nodes where node.type == SuccessNode.type.name || node.type == FailureNode.type.name {
            ends[id] = node.type == SuccessNode.type.name
        }
    }
}
