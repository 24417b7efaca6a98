import AuthBridgeCore

/// Translates one tree of an AM export into the journey model: each node built by the AM type
/// its `nodeType` names (`NodeRegistry.amType(named:)`), its `connections` as outcomes, AM's static
/// success and failure nodes as the journey's ends. Every mistake names the tree, the node (id
/// and type) and what is wrong.
struct AMTreeImporter {
    /// Node configs found in other files (REST trees carry none of their own), by node id.
    var configPool: [String: JSONValue] = [:]
    /// Let node types AuthBridge does not know in, as nodes a scenario decides.
    var unknownAsScenario = false

    /// AM's default tree duration, in seconds (trees in exports do not carry their own).
    static let timeout: Double = 300

    func journey(
        _ export: AMTreeExport, fallbackName: String
    ) throws(JourneyDefinition.DefinitionError) -> JourneyDefinition {
        let name = export.name ?? fallbackName
        func fail(_ reason: String, node: String? = nil, type: String? = nil) -> JourneyDefinition.DefinitionError {
            JourneyDefinition.DefinitionError(journey: name, node: node, reason: reason, nodeType: type)
        }
        guard export.tree["_id"]?.stringValue != nil else { throw fail("the tree has no \"_id\" string (its name)") }
        guard case .string(let entry)? = export.tree["entryNodeId"] else {
            throw fail("the tree has no \"entryNodeId\" string")
        }
        guard case .object(let graph)? = export.tree["nodes"] else {
            throw fail("the tree's \"nodes\" must be an object of node id → node")
        }
        var ids = Set(graph.keys)
        ids.insert(AM.successNodeId)
        ids.insert(AM.failureNodeId)
        var list: [JourneyDefinition.Node] = []
        var inputless: Set<String> = []
        let nodeConfigs = Dictionary(export.nodes.members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        let innerConfigs = Dictionary(export.innerNodes.members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        for member in graph.members {
            let id = member.key
            guard case .object(let entry) = member.value, case .string(let typeName)? = entry["nodeType"] else {
                throw fail("the node needs a \"nodeType\" string", node: id)
            }
            let displayName = entry["displayName"]?.stringValue
            var connections: [String: String] = [:]
            if let raw = entry["connections"] {
                guard case .object(let map) = raw else {
                    throw fail("\"connections\" must be an object of outcome → node id", node: id, type: typeName)
                }
                for c in map.members {
                    guard case .string(let target) = c.value else {
                        throw fail("connection \"\(c.key)\" must name a node id", node: id, type: typeName)
                    }
                    guard ids.contains(target) else {
                        throw fail(
                            "outcome \"\(c.key)\" leads to \"\(target)\", which is no node of the tree (nor AM's success or failure)",
                            node: id, type: typeName)
                    }
                    connections[c.key] = target
                }
            }
            let config = nodeConfigs[id] ?? configPool[id]
            let built: (node: any JourneyNode, asksForInput: Bool)
            do {
                built = try build(
                    id: id, type: typeName, config: config, displayName: displayName, export: export, treeName: name,
                    innerConfigs: innerConfigs, connections: Array(connections.keys))
            } catch {
                throw fail(error.reason, node: id, type: typeName)
            }
            for outcome in connections.keys.sorted() where !built.node.outcomes.contains(outcome) {
                throw fail(
                    "no outcome \"\(outcome)\" (a \(typeName) has: \(built.node.outcomes.joined(separator: ", ")))",
                    node: id, type: typeName)
            }
            // AM runs a tree with an unconnected outcome until a node takes it; so does this,
            // and that node then ends the journey with AM's failure and a logged line.
            for outcome in built.node.outcomes where connections[outcome] == nil {
                let stub = id + "#" + outcome
                connections[outcome] = stub
                list.append(
                    JourneyDefinition.Node(
                        id: stub, type: "unconnected", node: AM.UnconnectedOutcome(node: id, outcome: outcome),
                        outcomes: [:]))
            }
            if !built.asksForInput { inputless.insert(id) }
            list.append(
                JourneyDefinition.Node(
                    id: id, type: typeName, node: built.node, outcomes: connections, displayName: displayName))
        }
        list.append(
            JourneyDefinition.Node(
                id: AM.successNodeId, type: AM.SuccessNode.type.name, node: AM.SuccessNode(), outcomes: [:],
                displayName: "Success"))
        list.append(
            JourneyDefinition.Node(
                id: AM.failureNodeId, type: AM.FailureNode.type.name, node: AM.FailureNode(), outcomes: [:],
                displayName: "Failure"))
        guard ids.contains(entry) else { throw fail("\"entryNodeId\" \"\(entry)\" is no node of the tree") }
        if let loop = Self.loopWithoutInput(list, inputless: inputless) {
            throw fail(
                "the nodes \(loop.joined(separator: " → ")) form a loop in which no node asks for input: it would never end",
                node: loop[0])
        }
        return try JourneyDefinition(name: name, entry: entry, timeout: Self.timeout, nodes: list)
    }

    private func build(
        id: String, type typeName: String, config: JSONValue?, displayName: String?, export: AMTreeExport,
        treeName: String,
        innerConfigs: [String: JSONValue], connections: [String]
    ) throws(SettingsError) -> (node: any JourneyNode, asksForInput: Bool) {
        let config = config ?? .object([:])
        if let declared = config["_type"]?["_id"]?.stringValue, declared != typeName {
            throw SettingsError(reason: "its config is of type \(declared), not \(typeName)")
        }
        var s = try Settings(config, what: "a node config")
        let exported = config["_outcomes"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        let scripts = export.scripts
        let source = AMNodeSource(
            tree: treeName, nodeId: id, displayName: displayName,
            exportedOutcomes: exported.isEmpty ? connections.sorted() : exported,
            scriptName: { scripts[$0]?["name"]?.stringValue },
            child: { childId, childType throws(SettingsError) in
                try self.child(
                    id: childId, type: childType, config: innerConfigs[childId] ?? self.configPool[childId],
                    source: nil, export: export, treeName: treeName)
            },
            socialProviders: export.socialProviders, unknownAsScenario: unknownAsScenario)
        guard let type = NodeRegistry.amType(named: typeName), let buildNode = type.build else {
            guard unknownAsScenario else {
                throw SettingsError(
                    reason:
                        "AuthBridge does not know this node type; start with --unknown-nodes scenario to let a scenario choose its outcome, or remove it from the tree"
                )
            }
            return (AM.ScenarioNode.unknown(source), true)
        }
        switch try buildNode(&s, source) {
        case .node(let node): return (node, type.asksForInput)
        case .collector(let collector):
            return (
                AM.PageNode(children: [collector], header: nil, description: nil, stage: nil, isPage: false),
                collector.callbackCount > 0
            )
        }
    }

    /// A Page node's child: a node type that collects (AM allows only those in a page).
    private func child(
        id: String, type typeName: String, config: JSONValue?, source _: AMNodeSource?, export: AMTreeExport,
        treeName: String
    ) throws(SettingsError) -> any PageChild {
        guard let config else { throw SettingsError(reason: "its config is missing from \"innerNodes\"") }
        let built = try build(
            id: id, type: typeName, config: config, displayName: config["_type"]?["name"]?.stringValue, export: export,
            treeName: treeName,
            innerConfigs: [:], connections: [])
        if let page = built.node as? AM.PageNode, !page.isPage, page.children.count == 1 { return page.children[0] }
        if let scenario = built.node as? AM.ScenarioNode { return scenario }
        throw SettingsError(reason: "a Page node may hold only nodes that collect input, and a \(typeName) does not")
    }

    /// A cycle of nodes none of which asks for input (AM would loop until its limit), if any.
    static func loopWithoutInput(_ nodes: [JourneyDefinition.Node], inputless: Set<String>) -> [String]? {
        var edges: [String: [String]] = [:]
        for node in nodes where inputless.contains(node.id) {
            edges[node.id] = node.outcomes.keys.sorted().compactMap { node.outcomes[$0] }.filter {
                inputless.contains($0)
            }
        }
        var state: [String: Int] = [:]  // 1 on the path, 2 done
        var path: [String] = []
        func visit(_ id: String) -> [String]? {
            state[id] = 1
            path.append(id)
            for next in edges[id] ?? [] {
                if state[next] == 1 { return Array(path[path.firstIndex(of: next)!...]) + [next] }
                if state[next] == nil, let loop = visit(next) { return loop }
            }
            path.removeLast()
            state[id] = 2
            return nil
        }
        for id in edges.keys.sorted() where state[id] == nil {
            if let loop = visit(id) { return loop }
        }
        return nil
    }
}
