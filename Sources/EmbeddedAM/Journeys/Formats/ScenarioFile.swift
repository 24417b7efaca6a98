import AuthBridgeCore

/// The scenario file (`--scenario FILE`, docs/journeys.md): for each journey, the outcome of
/// each node AuthBridge cannot run, by node id or display name, and optionally the callbacks
/// that node sends first, in AuthBridge's callback format; for an HTTP Client node, the response
/// its call gets:
///
///     {"journeys": {"Login": {"Check VIP": "true",
///                             "6c1c…": {"outcome": "known", "callbacks": [{"type": "TextOutputCallback", "message": "Hi"}]},
///                             "Get Profile": {"response": {"status": 200, "body": {"name": "Ada"}}}}}}
enum ScenarioFile {
    /// One entry of the file: a decided node's choice, or an HTTP Client's response.
    enum Entry {
        case choice(ScenarioChoice)
        case response(ScenarioResponse)
    }

    static func choices(
        _ json: JSONValue
    ) throws(ScenarioError) -> [(journey: String, node: String, entry: Entry)] {
        guard case .object(let top) = json, case .object(let journeys)? = top["journeys"] else {
            throw ScenarioError(
                param: "journeys", reason: "a scenario is {\"journeys\": {journey: {node id or display name: outcome}}}"
            )
        }
        for key in top.keys where key != "journeys" && !key.hasPrefix("_") && !key.hasPrefix("$") {
            throw ScenarioError(param: key, reason: "unknown key \"\(key)\" (a scenario has \"journeys\")")
        }
        var list: [(String, String, Entry)] = []
        for journey in journeys.members {
            guard case .object(let nodes) = journey.value else {
                throw ScenarioError(
                    param: journey.key, reason: "journey \(journey.key): expected an object of node → outcome")
            }
            for node in nodes.members {
                let at = "journey \(journey.key), node \"\(node.key)\""
                switch node.value {
                case .string(let outcome):
                    list.append((journey.key, node.key, .choice(ScenarioChoice(outcome: outcome))))
                case .object(let object) where object["response"] != nil:
                    list.append((journey.key, node.key, .response(try response(object, at: at, node: node.key))))
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
                    list.append(
                        (journey.key, node.key, .choice(ScenarioChoice(outcome: outcome, callbacks: collectors))))
                default:
                    throw ScenarioError(
                        param: node.key,
                        reason: "\(at): expected an outcome string, {\"outcome\", \"callbacks\"} or {\"response\"}")
                }
            }
        }
        return list
    }

    /// `{"response": {"status": 200, "body": …}}` or `{"response": {"unreachable": "why"}}`.
    private static func response(
        _ object: JSONObject, at: String, node: String
    ) throws(ScenarioError) -> ScenarioResponse {
        for key in object.keys where key != "response" && !key.hasPrefix("_") {
            throw ScenarioError(param: node, reason: "\(at): unknown key \"\(key)\" beside \"response\"")
        }
        guard case .object(let response)? = object["response"] else {
            throw ScenarioError(
                param: node, reason: "\(at): \"response\" must be {\"status\", \"body\"} or {\"unreachable\"}")
        }
        for key in response.keys where !["status", "body", "unreachable"].contains(key) && !key.hasPrefix("_") {
            throw ScenarioError(
                param: node,
                reason:
                    "\(at): unknown key \"\(key)\" in \"response\" (it has \"status\" and \"body\", or \"unreachable\")"
            )
        }
        if let reason = response["unreachable"] {
            guard case .string(let text) = reason, response["status"] == nil, response["body"] == nil else {
                throw ScenarioError(
                    param: node,
                    reason: "\(at): \"unreachable\" is a reason (a string), and comes without status or body")
            }
            return .unreachable(reason: text)
        }
        guard let status = response["status"]?.intValue, (100...599).contains(status) else {
            throw ScenarioError(param: node, reason: "\(at): \"status\" must be an HTTP status code from 100 to 599")
        }
        return .reply(status: Int(status), body: response["body"] ?? .string(""))
    }
}
