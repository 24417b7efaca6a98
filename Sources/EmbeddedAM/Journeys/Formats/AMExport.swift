import AuthBridgeCore

/// One tree of an AM export with what travels with it: node configs, Page children's configs,
/// script names and social providers (Frodo's `*.journey.json`, e.g. rockcarver/frodo-cli `test/e2e/exports/`).
struct AMTreeExport {
    var tree: JSONObject
    var nodes: JSONObject
    var innerNodes: JSONObject
    var scripts: JSONObject
    var socialProviders: [AMSocialProvider]

    var name: String? { tree["_id"]?.stringValue }
}

/// What a journeys file holds, told by its content, never by its name.
enum JourneyFileContent {
    /// AuthBridge's own journey JSON (docs/journeys.md).
    case authBridge(JSONValue)
    /// Trees of an AM export: Frodo's single- or multi-journey `*.journey.json`, its legacy
    /// per-tree form, or AM's REST tree export (one tree, or a query's `result` list).
    case amTrees([AMTreeExport])
    /// Node configs exported on their own (AM's REST `…/nodes/<type>/<id>`, config-as-code
    /// layouts): they supply the configs a REST tree export does not carry.
    case amNodeConfigs(JSONObject)

    static func detect(_ json: JSONValue) -> JourneyFileContent? {
        switch json {
        case .array: return .authBridge(json)
        case .object(let object):
            if case .object(let trees)? = object["trees"] {
                return .amTrees(trees.members.compactMap { member in member.value.objectValue.flatMap(frodoTree) })
            }
            if object["tree"]?.objectValue != nil, let tree = frodoTree(object) { return .amTrees([tree]) }
            if isRESTTree(object) { return .amTrees([restTree(object)]) }
            if case .array(let result)? = object["result"], !result.isEmpty {
                if result.allSatisfy({ $0.objectValue.map(isRESTTree) ?? false }) {
                    return .amTrees(result.compactMap { $0.objectValue.map(restTree) })
                }
                if result.allSatisfy({ $0.objectValue.map(isNodeConfig) ?? false }) {
                    return .amNodeConfigs(
                        JSONObject(result.compactMap { item in item["_id"]?.stringValue.map { ($0, item) } }))
                }
            }
            if isNodeConfig(object), let id = object["_id"]?.stringValue {
                return .amNodeConfigs([id: .object(object)])
            }
            if object["journeys"] != nil || (object["name"] != nil && object["nodes"] != nil) {
                return .authBridge(json)
            }
            return nil
        default: return nil
        }
    }

    /// Frodo's per-tree object: `{tree, nodes, innerNodes, scripts, …}`.
    private static func frodoTree(_ object: JSONObject) -> AMTreeExport? {
        guard case .object(let tree)? = object["tree"] else { return nil }
        // A provider switched off in the tenant is not offered (`enabled: false`).
        let providers = (object["socialIdentityProviders"]?.objectValue?.members ?? [])
            .filter { $0.value["enabled"]?.boolValue != false }
            .map {
                AMSocialProvider(
                    name: $0.key, uiConfig: $0.value["uiConfig"] ?? .object([:]), config: $0.value.objectValue ?? [:])
            }
        return AMTreeExport(
            tree: tree, nodes: object["nodes"]?.objectValue ?? [:],
            innerNodes: object["innerNodes"]?.objectValue ?? [:],
            scripts: object["scripts"]?.objectValue ?? [:], socialProviders: providers.sorted { $0.name < $1.name })
    }

    private static func isRESTTree(_ object: JSONObject) -> Bool {
        object["entryNodeId"] != nil && object["nodes"]?.objectValue != nil && object["_id"] != nil
    }

    private static func restTree(_ object: JSONObject) -> AMTreeExport {
        AMTreeExport(tree: object, nodes: [:], innerNodes: [:], scripts: [:], socialProviders: [])
    }

    private static func isNodeConfig(_ object: JSONObject) -> Bool {
        object["_type"]?["_id"]?.stringValue != nil && object["_id"]?.stringValue != nil && object["entryNodeId"] == nil
    }
}
