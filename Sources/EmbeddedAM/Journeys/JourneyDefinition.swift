import AuthBridgeCore

/// A journey as data, modelled on AM trees: named nodes, each with a type, its settings, and
/// outcomes that name the next node. Loaded from JSON (the built-ins are JSON too).
public struct JourneyDefinition: Sendable {
    public var name: String
    public var entry: String
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
        guard case .object(let object) = json else {
            throw DefinitionError(journey: "?", node: nil, reason: "a journey must be a JSON object")
        }
        guard case .string(let name)? = object["name"], !name.isEmpty else {
            throw DefinitionError(journey: "?", node: nil, reason: "\"name\" must be a non-empty string")
        }
        guard case .string(let entry)? = object["entry"] else {
            throw DefinitionError(journey: name, node: nil, reason: "\"entry\" must name the first node")
        }
        guard case .object(let nodeObjects)? = object["nodes"], nodeObjects.count > 0 else {
            throw DefinitionError(journey: name, node: nil, reason: "\"nodes\" must be a non-empty object")
        }
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
            for outcome in node.kind.requiredOutcomes where node.outcomes[outcome] == nil {
                throw DefinitionError(journey: name, node: node.id, reason: "missing outcome \"\(outcome)\"")
            }
            for (outcome, target) in node.outcomes.sorted(by: { $0.key < $1.key }) where nodes[target] == nil {
                throw DefinitionError(
                    journey: name, node: node.id, reason: "outcome \"\(outcome)\" leads to unknown node \"\(target)\"")
            }
        }
        self.name = name
        self.entry = entry
        self.nodes = nodes
    }
}

public struct JourneyNode: Sendable {
    public enum Kind: Sendable {
        /// Shows callbacks and waits for the client; outcome `next`.
        case page(PageSpec)
        /// Checks username/password in shared state against the directory; `true`/`false`.
        case dataStoreDecision
        /// Creates a user from shared state; `created`/`failed`.
        case createObject
        /// Ends the journey with a session.
        case success
        /// Ends the journey with AM's 401.
        case failure

        var requiredOutcomes: [String] {
            switch self {
            case .page: return ["next"]
            case .dataStoreDecision: return ["true", "false"]
            case .createObject: return ["created", "failed"]
            case .success, .failure: return []
            }
        }
    }

    public var id: String
    public var kind: Kind
    public var outcomes: [String: String]

    struct NodeError: Error { var reason: String }

    init(id: String, json: JSONValue) throws(NodeError) {
        guard case .object(let object) = json else { throw NodeError(reason: "a node must be a JSON object") }
        guard case .string(let type)? = object["type"] else { throw NodeError(reason: "\"type\" must be a string") }
        self.id = id
        switch type {
        case "page": kind = .page(try PageSpec(json: object))
        case "dataStoreDecision": kind = .dataStoreDecision
        case "createObject": kind = .createObject
        case "success": kind = .success
        case "failure": kind = .failure
        default: throw NodeError(reason: "unknown node type \"\(type)\"")
        }
        var outcomes: [String: String] = [:]
        if let value = object["outcomes"] {
            guard case .object(let map) = value else { throw NodeError(reason: "\"outcomes\" must be an object") }
            for member in map.members {
                guard case .string(let target) = member.value else {
                    throw NodeError(reason: "outcome \"\(member.key)\" must name a node")
                }
                outcomes[member.key] = target
            }
        }
        self.outcomes = outcomes
    }
}

/// A page node: what AM's Page Node shows in one step.
public struct PageSpec: Sendable {
    public var stage: String?
    public var header: String?
    public var description: String?
    public var callbacks: [CallbackSpec]

    init(json object: JSONObject) throws(JourneyNode.NodeError) {
        func optionalString(_ key: String) throws(JourneyNode.NodeError) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let s)?: return s
            default: throw JourneyNode.NodeError(reason: "\"\(key)\" must be a string")
            }
        }
        stage = try optionalString("stage")
        header = try optionalString("header")
        description = try optionalString("description")
        guard case .array(let list)? = object["callbacks"], !list.isEmpty else {
            throw JourneyNode.NodeError(reason: "a page needs a non-empty \"callbacks\" array")
        }
        var callbacks: [CallbackSpec] = []
        for (index, item) in list.enumerated() {
            do {
                callbacks.append(try CallbackSpec(json: item))
            } catch {
                throw JourneyNode.NodeError(reason: "callback \(index): \(error.reason)")
            }
        }
        self.callbacks = callbacks
    }
}
