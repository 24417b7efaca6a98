import AuthBridgeCore

/// Loads the journeys of every file `--journeys` names, each told apart by its content:
/// AuthBridge's journey JSON, or an AM export (Frodo's `*.journey.json` with one or many trees,
/// AM's REST tree export, node configs exported on their own). Then checks what only the whole
/// set can tell: every inner tree an Inner Tree Evaluator names is loaded (or built in), and no
/// inner tree enters itself, directly or through others.
public enum JourneyImport {
    public struct Source: Sendable {
        public var path: String
        public var text: String

        public init(path: String, text: String) {
            self.path = path
            self.text = text
        }
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var file: String
        public var reason: String
        public var description: String { "the journeys file \(file) is invalid: \(reason)" }
    }

    /// `builtIn`: the names of journeys already there (the built-ins), which inner trees may enter.
    public static func load(
        _ sources: [Source], unknownAsScenario: Bool = false, builtIn: Set<String>
    ) throws(Failure) -> [JourneyDefinition] {
        var contents: [(path: String, content: JourneyFileContent)] = []
        var importer = AMTreeImporter(unknownAsScenario: unknownAsScenario)
        for source in sources {
            let json: JSONValue
            do {
                json = try JSONParser.parse(source.text)
            } catch {
                throw Failure(file: source.path, reason: "the file is not JSON: \(error)")
            }
            guard let content = JourneyFileContent.detect(json) else {
                throw Failure(
                    file: source.path,
                    reason:
                        "it is neither AuthBridge's journey JSON (name, entry, nodes; docs/journeys.md) nor an AM export (Frodo's {\"trees\": …}, a tree with \"entryNodeId\", or node configs with \"_type\")"
                )
            }
            if case .amNodeConfigs(let configs) = content {
                for member in configs.members { importer.configPool[member.key] = member.value }
            }
            contents.append((source.path, content))
        }
        var journeys: [JourneyDefinition] = []
        var fileOf: [String: String] = [:]
        for (path, content) in contents {
            var loaded: [JourneyDefinition]
            do throws(JourneyDefinition.DefinitionError) {
                switch content {
                case .authBridge(let json): loaded = try JourneyDefinition.load(json: json)
                case .amTrees(let trees):
                    guard !trees.isEmpty else {
                        throw JourneyDefinition.DefinitionError(
                            journey: "?", node: nil, reason: "the export holds no trees")
                    }
                    loaded = []
                    for (index, tree) in trees.enumerated() {
                        loaded.append(try importer.journey(tree, fallbackName: "tree \(index)"))
                    }
                case .amNodeConfigs: loaded = []
                }
            } catch {
                throw Failure(file: path, reason: error.description)
            }
            for journey in loaded {
                if let other = fileOf[journey.name] {
                    throw Failure(
                        file: path,
                        reason: "journey \"\(journey.name)\" is defined again (first in \(other)); load one of them")
                }
                fileOf[journey.name] = path
                journeys.append(journey)
            }
        }
        try checkInnerTrees(journeys, fileOf: fileOf, builtIn: builtIn)
        return journeys
    }

    private static func checkInnerTrees(
        _ journeys: [JourneyDefinition], fileOf: [String: String], builtIn: Set<String>
    ) throws(Failure) {
        var enters: [String: [(node: String, tree: String)]] = [:]
        for journey in journeys {
            for id in journey.nodes.keys.sorted() {
                guard let evaluator = journey.nodes[id]?.node as? AM.InnerTreeEvaluatorNode else { continue }
                guard fileOf[evaluator.tree] != nil || builtIn.contains(evaluator.tree) else {
                    throw Failure(
                        file: fileOf[journey.name]!,
                        reason:
                            "journey \"\(journey.name)\", node \"\(id)\" (InnerTreeEvaluatorNode): its inner tree \"\(evaluator.tree)\" is not loaded; add its export to --journeys"
                    )
                }
                enters[journey.name, default: []].append((id, evaluator.tree))
            }
        }
        // Depth-first over "enters": a tree met again on the path is a loop.
        var done: Set<String> = []
        var path: [String] = []
        func visit(_ name: String) -> [String]? {
            if let start = path.firstIndex(of: name) { return Array(path[start...]) + [name] }
            if done.contains(name) { return nil }
            path.append(name)
            for edge in enters[name] ?? [] {
                if let loop = visit(edge.tree) { return loop }
            }
            path.removeLast()
            done.insert(name)
            return nil
        }
        for name in enters.keys.sorted() {
            if let loop = visit(name) {
                let node = enters[loop[0]]!.first { $0.tree == loop[1] }!.node
                throw Failure(
                    file: fileOf[loop[0]]!,
                    reason:
                        "journey \"\(loop[0])\", node \"\(node)\" (InnerTreeEvaluatorNode): inner trees enter each other in a loop (\(loop.joined(separator: " → "))); AM would never finish it"
                )
            }
        }
    }
}
