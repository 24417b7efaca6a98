import AuthBridgeCore

/// AuthBridge's journey JSON (docs/journeys.md): a journey's header, and its nodes built through
/// the registry. Every mistake names the journey and the node.
extension JourneyDefinition {
    public init(json: JSONValue) throws(DefinitionError) {
        let header: (name: String, entry: String, timeout: Double, nodes: JSONObject)
        do {
            header = try Self.header(json)
        } catch {
            throw DefinitionError(journey: json["name"]?.stringValue ?? "?", node: nil, reason: error.reason)
        }
        var nodes: [Node] = []
        for member in header.nodes.members {
            do {
                nodes.append(contentsOf: try NodeRegistry.node(id: member.key, json: member.value))
            } catch {
                throw DefinitionError(journey: header.name, node: member.key, reason: error.reason)
            }
        }
        try self.init(name: header.name, entry: header.entry, timeout: header.timeout, nodes: nodes)
    }

    private static func header(
        _ json: JSONValue
    ) throws(SettingsError) -> (name: String, entry: String, timeout: Double, nodes: JSONObject) {
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

    /// A journey file: one journey object, an array of them, or `{"journeys": [...]}`.
    public static func load(fileText: String) throws(DefinitionError) -> [JourneyDefinition] {
        let json: JSONValue
        do {
            json = try JSONParser.parse(fileText)
        } catch {
            throw DefinitionError(journey: "?", node: nil, reason: "the file is not JSON: \(error)")
        }
        return try load(json: json)
    }

    /// A journey file already parsed: one journey object, an array of them, or `{"journeys": [...]}`.
    static func load(json: JSONValue) throws(DefinitionError) -> [JourneyDefinition] {
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
        guard !items.isEmpty else {
            throw DefinitionError(journey: "?", node: nil, reason: "the file holds no journeys")
        }
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
