import AuthBridgeCore
import IdentityServer

@testable import EmbeddedAM

/// The example exports under docs/examples/am-exports, and small exports written inline for the
/// bad-input cases, loaded the way `--journeys` loads them.
enum AMExports {
    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/docs/examples/am-exports"
    }()

    static let platform = [
        "Login", "Registration", "ForgottenUsername", "ResetPassword", "UpdatePassword", "ProgressiveProfile",
    ]

    static func source(_ name: String) -> JourneyImport.Source {
        let path = directory + "/" + name + ".journey.json"
        guard case .success(let bytes) = FileBytes.read(path: path) else { fatalError("cannot read \(path)") }
        return JourneyImport.Source(path: path, text: String(decoding: bytes, as: UTF8.self))
    }

    /// A harness whose server runs the platform example journeys in place of the built-ins.
    static func harness(seed: UInt64 = 1) throws -> Harness {
        let harness = Harness(seed: seed)
        for journey in try JourneyImport.load(platform.map(source), builtIn: Set(harness.am.journeyNames)) {
            harness.am.add(journey: journey)
        }
        return harness
    }

    /// One tree in Frodo's single-journey shape: `nodes` are `id: (type, connections, config)`.
    static func tree(
        _ name: String, entry: String,
        _ nodes: [(id: String, type: String, connections: JSONObject, config: JSONObject)], inner: JSONObject = [:],
        scripts: JSONObject = [:]
    ) -> String {
        var graph = JSONObject()
        var configs = JSONObject()
        for node in nodes {
            graph[node.id] = [
                "nodeType": .string(node.type), "displayName": .string(node.id),
                "connections": .object(node.connections),
            ]
            var config = node.config
            config["_id"] = .string(node.id)
            config["_type"] = ["_id": .string(node.type)]
            configs[node.id] = .object(config)
        }
        let export: JSONValue = [
            "trees": [
                name: [
                    "tree": ["_id": .string(name), "entryNodeId": .string(entry), "nodes": .object(graph)],
                    "nodes": .object(configs), "innerNodes": .object(inner), "scripts": .object(scripts),
                ]
            ]
        ]
        return JSONWriter.compact(export)
    }

    static func load(
        _ texts: [String], unknownAsScenario: Bool = false
    ) throws(JourneyImport.Failure) -> [JourneyDefinition] {
        try JourneyImport.load(
            texts.enumerated().map { JourneyImport.Source(path: "t\($0.offset).json", text: $0.element) },
            unknownAsScenario: unknownAsScenario,
            builtIn: ["Login"])
    }

    static let success = AM.successNodeId
    static let failure = AM.failureNodeId
}

extension JSONValue {
    /// An array element, for reading steps in tests (`step["callbacks"]?[0]`).
    subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
