import AuthBridgeCore

/// A DaVinci flow as data (docs/davinci.md, "Flow files"): forms, whose fields are the collectors
/// the SDKs know, and connector steps, each leading on by its outcomes. A form is what the
/// client sees (one answer with `form.components.fields`); a connector runs between two forms
/// (checks a password, creates a user, sends a code) or decides by a scenario what AuthBridge
/// cannot run.
public struct DaVinciFlow: Sendable {
    /// What `acr_values` names to start it (PingOne's DaVinci flow policy).
    public var name: String
    /// `flowId` in each answer.
    public var id: String
    var start: String
    var nodes: [String: FlowNode]

    /// The connector steps whose outcome a scenario chooses, with the outcomes they may take.
    public var scenarioNodes: [(node: String, outcomes: [String])] {
        nodes.values.compactMap { node in
            guard case .connector(let connector) = node.kind, connector.capability == nil else { return nil }
            return (node.id, node.next.keys.sorted())
        }.sorted { $0.node < $1.node }
    }
}

struct FlowNode: Sendable {
    enum Kind: Sendable {
        case form(FlowForm)
        case connector(FlowConnector)
    }

    var id: String
    var kind: Kind
    /// Outcome (a button's key for a form) → the next node's id. A form's `*` catches any other.
    var next: [String: String]
}

struct FlowForm: Sendable {
    var name: String
    var description: String
    var category: String
    var fields: [FlowField]
}

/// One field of a form: its JSON exactly as the client gets it, and the collector type that
/// reads what comes back for it.
struct FlowField: Sendable {
    var json: JSONObject
    var type: String
    var key: String
    var collector: any CollectorType
}

struct FlowConnector: Sendable {
    var connectorId: String
    var capabilityName: String
    /// Nil when AuthBridge cannot run it: a scenario chooses its outcome.
    var capability: (any ConnectorCapability)?
    var settings: JSONObject
    /// The outcome taken when no scenario chose one (a scenario node's `default`, else the first).
    var defaultOutcome: String?
}

/// Why a flow file was refused, with where.
public struct FlowFormatError: Error, Equatable, Sendable, CustomStringConvertible, JSONReadFailure {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public init(_ error: JSONReadError) { reason = error.description }
    public var description: String { reason }
}

extension DaVinciFlow {
    /// A flow file: one flow, or `{"flows": [...]}`.
    public static func load(_ json: JSONValue) throws(FlowFormatError) -> [DaVinciFlow] {
        let root = try JSONReader<FlowFormatError>(json)
        if root.has("flows") {
            var flows: [DaVinciFlow] = []
            for reader in try root.readers("flows") { flows.append(try parse(reader)) }
            return flows
        }
        return [try parse(root)]
    }

    static func parse(_ reader: JSONReader<FlowFormatError>) throws(FlowFormatError) -> DaVinciFlow {
        let name = try reader.string("name")
        var nodes: [String: FlowNode] = [:]
        for nodeReader in try reader.readers("nodes") {
            let node = try FlowNode.parse(nodeReader)
            guard nodes[node.id] == nil else { throw FlowFormatError(reason: "flow \(name): node \(node.id) twice") }
            nodes[node.id] = node
        }
        let start = try reader.string("start")
        guard nodes[start] != nil else { throw FlowFormatError(reason: "flow \(name): start names no node \(start)") }
        for node in nodes.values {
            for (outcome, target) in node.next where nodes[target] == nil {
                throw FlowFormatError(
                    reason: "flow \(name): node \(node.id)'s outcome \(outcome) leads to no node \(target)")
            }
        }
        let id = try reader.optionalString("id") ?? Array(SHA256.hash(name).prefix(16)).hexString
        return DaVinciFlow(name: name, id: id, start: start, nodes: nodes)
    }
}

extension FlowNode {
    static func parse(_ reader: JSONReader<FlowFormatError>) throws(FlowFormatError) -> FlowNode {
        let id = try reader.string("id")
        var next: [String: String] = [:]
        if let outcomes = try reader["next"].optionalReader() {
            for member in outcomes.object.members {
                guard let target = member.value.stringValue else {
                    throw FlowFormatError(reason: "\(outcomes.path).\(member.key) must name a node")
                }
                next[member.key] = target
            }
        }
        if let form = try reader["form"].optionalReader() {
            return FlowNode(id: id, kind: .form(try FlowForm.parse(form)), next: next)
        }
        let connectorId = try reader.string("connector")
        let capabilityName = try reader.string("capability")
        let capability = ConnectorRegistry.capability(connector: connectorId, capability: capabilityName)
        if let capability {
            for outcome in next.keys where !capability.outcomes.contains(outcome) {
                throw FlowFormatError(
                    reason:
                        "node \(id): \(connectorId).\(capabilityName) has no outcome \(outcome) "
                        + "(it has \(capability.outcomes.joined(separator: ", ")))")
            }
        }
        let connector = FlowConnector(
            connectorId: connectorId, capabilityName: capabilityName, capability: capability,
            settings: try reader["settings"].optionalObject() ?? [:],
            defaultOutcome: try reader.optionalString("default") ?? next.keys.sorted().first)
        return FlowNode(id: id, kind: .connector(connector), next: next)
    }
}

extension FlowForm {
    static func parse(_ reader: JSONReader<FlowFormatError>) throws(FlowFormatError) -> FlowForm {
        var fields: [FlowField] = []
        for field in try reader.readers("fields") {
            let type = try field.string("type")
            guard let collector = CollectorRegistry.type(named: type) else {
                throw FlowFormatError(
                    reason:
                        "\(field.path).type: no collector \(type) (known: \(CollectorRegistry.names.joined(separator: ", ")))"
                )
            }
            let key = try field.optionalString("key") ?? ""
            if collector.kind != .display, key.isEmpty {
                throw FlowFormatError(reason: "\(field.path).key: a \(type) field needs a key")
            }
            fields.append(FlowField(json: field.object, type: type, key: key, collector: collector))
        }
        return FlowForm(
            name: try reader.optionalString("name") ?? "", description: try reader.optionalString("description") ?? "",
            category: try reader.optionalString("category") ?? "CUSTOM_HTML", fields: fields)
    }
}
