import AuthBridgeCore

/// A journey as data, modelled on AM trees: named nodes, each with a type, its settings, and
/// outcomes that name the next node (docs/journeys.md, protocol/schema/journeys.schema.json).
/// The built-ins are written in the same JSON.
public struct JourneyDefinition: Sendable {
    public var name: String
    public var entry: String
    /// AM's tree "max duration": how long the whole journey may take, in seconds.
    public var timeout: Double
    public var nodes: [String: JourneyNode]

    public struct DefinitionError: Error, Equatable, Sendable, CustomStringConvertible {
        public var journey: String
        public var node: String?
        public var reason: String

        public var description: String {
            if let node { return "journey \"\(journey)\", node \"\(node)\": \(reason)" }
            return "journey \"\(journey)\": \(reason)"
        }
    }

    public init(json: JSONValue) throws(DefinitionError) {
        let header: (name: String, entry: String, timeout: Double, nodes: JSONObject)
        do {
            header = try Self.header(json)
        } catch {
            throw DefinitionError(journey: json["name"]?.stringValue ?? "?", node: nil, reason: error.reason)
        }
        (name, entry, timeout) = (header.name, header.entry, header.timeout)
        let nodeObjects = header.nodes
        var nodes: [String: JourneyNode] = [:]
        for member in nodeObjects.members {
            do {
                nodes[member.key] = try JourneyNode(id: member.key, json: member.value)
            } catch {
                throw DefinitionError(journey: name, node: member.key, reason: error.reason)
            }
        }
        guard nodes[entry] != nil else {
            throw DefinitionError(journey: name, node: nil, reason: "entry node \"\(entry)\" does not exist")
        }
        for member in nodeObjects.members {
            let node = nodes[member.key]!
            for outcome in node.kind.outcomes where node.outcomes[outcome] == nil && !Self.optionalOutcomes.contains(outcome) {
                throw DefinitionError(journey: name, node: node.id, reason: "missing outcome \"\(outcome)\"")
            }
            for (outcome, target) in node.outcomes.sorted(by: { $0.key < $1.key }) where nodes[target] == nil {
                throw DefinitionError(journey: name, node: node.id, reason: "outcome \"\(outcome)\" leads to unknown node \"\(target)\"")
            }
        }
        self.nodes = nodes
    }

    private static func header(_ json: JSONValue) throws(SettingsError) -> (name: String, entry: String, timeout: Double, nodes: JSONObject) {
        var s = try Settings(json, what: "a journey")
        let name = try s.requiredString("name")
        let entry = try s.requiredString("entry")
        let timeout = try s.seconds("timeout", default: 300)!
        _ = try s.string("description")
        guard let nodes = try s.object("nodes"), nodes.count > 0 else {
            throw SettingsError(reason: "\"nodes\" must be a non-empty object")
        }
        try s.finish()
        return (name, entry, timeout, nodes)
    }

    /// `otpVerify`'s `expired` goes where `false` goes unless a journey says otherwise.
    static let optionalOutcomes: Set<String> = ["expired"]

    /// A journey file: one journey object, an array of them, or `{"journeys": [...]}`.
    public static func load(fileText: String) throws(DefinitionError) -> [JourneyDefinition] {
        let json: JSONValue
        do {
            json = try JSONParser.parse(fileText)
        } catch {
            throw DefinitionError(journey: "?", node: nil, reason: "the file is not JSON: \(error)")
        }
        let items: [JSONValue]
        switch json {
        case .array(let list): items = list
        case .object(let object) where object["journeys"] != nil:
            guard case .array(let list)? = object["journeys"] else {
                throw DefinitionError(journey: "?", node: nil, reason: "\"journeys\" must be an array of journeys")
            }
            items = list
        default: items = [json]
        }
        guard !items.isEmpty else { throw DefinitionError(journey: "?", node: nil, reason: "the file holds no journeys") }
        var journeys: [JourneyDefinition] = []
        for item in items {
            let journey = try JourneyDefinition(json: item)
            if journeys.contains(where: { $0.name == journey.name }) {
                throw DefinitionError(journey: journey.name, node: nil, reason: "defined twice in the file")
            }
            journeys.append(journey)
        }
        return journeys
    }
}
