import AuthBridgeCore

/// A node type: its name in journey files, and how to build a node from its settings (the
/// settings parsing lives in the node's own file).
struct NodeType: Sendable {
    var name: String
    var build: @Sendable (inout Settings) throws(SettingsError) -> any JourneyNode
}

/// Every node type a journey may use. Adding one is a new file in `Nodes/` and a line here; the
/// order is the order the unknown-type error lists them in.
enum NodeRegistry {
    static let types: [NodeType] = [
        PageNode.type, DataStoreDecisionNode.type, CreateObjectNode.type, RetryLimitNode.type, AccountLockoutNode.type,
        OTPGenerateNode.type, OTPVerifyNode.type, ChoiceCollectorNode.type, PollingWaitNode.type, DeviceProfileNode.type,
        SuspendNode.type, ValueDecisionNode.type, SetFailureDetailsNode.type, SuccessNode.type, FailureNode.type,
    ]

    static func type(named name: String) -> NodeType? { types.first { $0.name == name } }

    /// AM's node types, by the name exports give them (`_type._id`), in `Nodes/AM/`.
    static let amTypes: [AMNodeType] = [
        AM.PageNode.type, AM.InnerTreeEvaluatorNode.type, AM.ScenarioNode.scriptedType,
    ] + AM.platformTypes + AM.moreTypes

    private static let amTypesByName = Dictionary(amTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    static func amType(named name: String) -> AMNodeType? { amTypesByName[name] }

    /// Builds the node a journey file describes: its type's settings, then its outcomes.
    static func node(id: String, json: JSONValue) throws(SettingsError) -> JourneyDefinition.Node {
        var s = try Settings(json, what: "a node")
        guard let typeName = try s.string("type") else { throw SettingsError(reason: "\"type\" must name a node type") }
        guard let type = type(named: typeName) else {
            throw SettingsError(reason: "unknown node type \"\(typeName)\" (known: \(types.map(\.name).joined(separator: ", ")))")
        }
        let node = try type.build(&s)
        var outcomes: [String: String] = [:]
        if let map = try s.object("outcomes") {
            for member in map.members {
                guard case .string(let target) = member.value else { throw SettingsError(reason: "outcome \"\(member.key)\" must name a node") }
                guard node.outcomes.contains(member.key) else {
                    let known = node.outcomes.isEmpty ? "none" : node.outcomes.joined(separator: ", ")
                    throw SettingsError(reason: "a \(typeName) node has no outcome \"\(member.key)\" (its outcomes: \(known))")
                }
                outcomes[member.key] = target
            }
        }
        try s.finish()
        try node.check()
        return JourneyDefinition.Node(id: id, type: typeName, node: node, outcomes: outcomes)
    }
}
