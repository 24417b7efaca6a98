import AuthBridgeCore

/// The scenario file (`--scenario FILE`, docs/journeys.md): for each journey, the outcome of
/// each node AuthBridge cannot run, by node id or display name, and optionally the callbacks
/// that node sends first, in AuthBridge's callback format:
///
///     {"journeys": {"Login": {"Check VIP": "true",
///                             "6c1c…": {"outcome": "known", "callbacks": [{"type": "TextOutputCallback", "message": "Hi"}]}}}}
enum ScenarioFile {
    static func choices(
        _ json: JSONValue
    ) throws(ScenarioError) -> [(journey: String, node: String, choice: ScenarioChoice)] {
        guard case .object(let top) = json, case .object(let journeys)? = top["journeys"] else {
            throw ScenarioError(
                param: "journeys", reason: "a scenario is {\"journeys\": {journey: {node id or display name: outcome}}}"
            )
        }
        for key in top.keys where key != "journeys" && !key.hasPrefix("_") && !key.hasPrefix("$") {
            throw ScenarioError(param: key, reason: "unknown key \"\(key)\" (a scenario has \"journeys\")")
        }
        var list: [(String, String, ScenarioChoice)] = []
        for journey in journeys.members {
            guard case .object(let nodes) = journey.value else {
                throw ScenarioError(
                    param: journey.key, reason: "journey \(journey.key): expected an object of node → outcome")
            }
            for node in nodes.members {
                let at = "journey \(journey.key), node \"\(node.key)\""
                switch node.value {
                case .string(let outcome):
                    list.append((journey.key, node.key, ScenarioChoice(outcome: outcome)))
                case .object(let object):
                    guard case .string(let outcome)? = object["outcome"] else {
                        throw ScenarioError(param: node.key, reason: "\(at): \"outcome\" must be a string")
                    }
                    var collectors: [CallbackCollector] = []
                    for (index, item) in (object["callbacks"]?.arrayValue ?? []).enumerated() {
                        do {
                            collectors.append(try CallbackFormat.collector(json: item))
                        } catch {
                            throw ScenarioError(param: node.key, reason: "\(at), callback \(index): \(error.reason)")
                        }
                    }
                    for key in object.keys where !["outcome", "callbacks"].contains(key) && !key.hasPrefix("_") {
                        throw ScenarioError(
                            param: node.key,
                            reason: "\(at): unknown key \"\(key)\" (a choice has \"outcome\" and \"callbacks\")")
                    }
                    list.append((journey.key, node.key, ScenarioChoice(outcome: outcome, callbacks: collectors)))
                default:
                    throw ScenarioError(
                        param: node.key, reason: "\(at): expected an outcome string or {\"outcome\", \"callbacks\"}")
                }
            }
        }
        return list
    }
}
