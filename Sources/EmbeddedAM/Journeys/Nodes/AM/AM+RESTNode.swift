import AuthBridgeCore

extension AM {
    /// Identity Cloud's HTTP Client node (`RESTNode`, the Marketplace's `ForgeRock/tntp-restnode`
    /// src/main/java/org/forgerock/openam/auth/nodes/RESTNode.java): no request leaves the daemon.
    /// The scenario gives the response its call gets (`--scenario`, docs/journeys.md), by node id or
    /// display name; then, as the node does: the status into shared `statusCodeReturn`, the body's
    /// text into shared `bodyReturn`, each `jpToSSMapper` JSONPath's value into shared state under
    /// its key (a path the body lacks is skipped); the outcome is the configured response code that
    /// matches (an exact code over a `2xx` pattern), overridden by the first `jpToOutcomeMapper`
    /// path that matches the body wrapped in a list, else `NOMATCHRESPONSE`. An unreachable service
    /// is `ERROR`. Without a response from the scenario the journey fails loudly, naming the node.
    struct RESTNode: JourneyNode {
        static let type = NodeType(name: "RESTNode", asksForInput: false) {
            (s: inout Settings, source: AMNodeSource) throws(SettingsError) in
            // What shapes the real request is checked for type only: no request is made.
            _ = try s.string("restURL")
            let mode = try s.string("requestMode", default: "GET")
            guard ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"].contains(mode) else {
                throw SettingsError(
                    reason: "\"requestMode\" must be GET, POST, PUT, DELETE, PATCH or HEAD, got \(mode)")
            }
            let bodyType = try s.string("bodyType", default: "JSON")
            guard ["XWWWFORMURLENCODED", "JSON", "XML", "PLAIN", "CUSTOM"].contains(bodyType) else {
                throw SettingsError(reason: "\"bodyType\" must be XWWWFORMURLENCODED, JSON, XML, PLAIN or CUSTOM")
            }
            _ = try s.int("timeout", default: 30, in: 0...86_400)
            for key in ["queryParamsMap", "headersMap"] { _ = try strings(&s, key) }
            let codes = try s.strings("responseCodes", nonEmpty: false) ?? []
            let toShared = try queries(&s, "jpToSSMapper")
            let toOutcome = try queries(&s, "jpToOutcomeMapper")
            let outcomes = codes + toOutcome.map(\.name) + [noMatch, error]
            guard Set(outcomes).count == outcomes.count else {
                throw SettingsError(
                    reason:
                        "\"responseCodes\" and \"jpToOutcomeMapper\" must name distinct outcomes, none of them NOMATCHRESPONSE or ERROR"
                )
            }
            return .node(
                RESTNode(
                    nodeId: source.nodeId, displayName: source.displayName, responseCodes: codes,
                    toShared: toShared, toOutcome: toOutcome, statusKey: try s.string("statusCodeReturn", default: ""),
                    bodyKey: try s.string("bodyReturn", default: "")))
        }

        static let noMatch = "NOMATCHRESPONSE"
        static let error = "ERROR"

        /// Its own id and name, by which the scenario gives its response.
        var nodeId: String
        var displayName: String?
        var responseCodes: [String]
        var toShared: [(name: String, path: JSONPathQuery)]
        var toOutcome: [(name: String, path: JSONPathQuery)]
        /// Shared-state keys for the status and the body's text; "" keeps them out.
        var statusKey: String
        var bodyKey: String

        var outcomes: [String] { responseCodes + toOutcome.map(\.name) + [Self.noMatch, Self.error] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard
                let response = context.scenario?.response(
                    journey: context.journeyName, node: nodeId, displayName: displayName)
            else { return refuse(context) }
            switch response {
            case .unreachable(let reason):
                logError(
                    "journey \(context.journeyName), node \(nodeId) (RESTNode): the scenario's call failed: \(reason)")
                return .outcome(Self.error)
            case .reply(let status, let body):
                let text: String
                let document: JSONValue?
                if case .string(let raw) = body {
                    text = raw
                    document = try? JSONParser.parse(raw)
                } else {
                    text = JSONWriter.compact(body)
                    document = body
                }
                if !statusKey.isEmpty { context.shared[statusKey] = .int(Int64(status)) }
                if !bodyKey.isEmpty { context.shared[bodyKey] = .string(text) }
                if let document {
                    for (key, path) in toShared {
                        if let value = path.evaluate(document) { context.shared[key] = value }
                    }
                }
                return .outcome(outcome(status: status, document: document))
            }
        }

        private func outcome(status: Int, document: JSONValue?) -> String {
            let code = String(status)
            var chosen = responseCodes.last { $0.contains("xx") && $0.first == code.first }
            if responseCodes.contains(code) { chosen = code }
            // The node reads these paths on the body wrapped in a list, and takes a non-empty list.
            let wrapped = JSONValue.array(document.map { [$0] } ?? [])
            for (name, path) in toOutcome {
                guard case .array(let matches)? = path.evaluate(wrapped) else {
                    // Jayway's answer is no list (a value, or no such path): the node's call fails.
                    return Self.error
                }
                if !matches.isEmpty { return name }
            }
            return chosen ?? Self.noMatch
        }

        private func refuse(_ context: NodeContext) -> NodeAction {
            let name = displayName.map { " \"\($0)\"" } ?? ""
            logError(
                "journey \(context.journeyName), node \(nodeId)\(name) (RESTNode, an HTTP Client): no response given; AuthBridge makes no HTTP request. Give one in the --scenario file: {\"journeys\": {\"\(context.journeyName)\": {\"\(displayName ?? nodeId)\": {\"response\": {\"status\": 200, \"body\": {…}}}}}}; the journey fails with AM's Login failure"
            )
            return .reply(AMFailure.reply(context))
        }

        private static func strings(_ s: inout Settings, _ key: String) throws(SettingsError) -> [(String, String)] {
            guard let object = try s.object(key) else { return [] }
            var pairs: [(String, String)] = []
            for member in object.members {
                guard case .string(let value) = member.value else {
                    throw SettingsError(reason: "\"\(key)\".\(member.key) must be a string")
                }
                pairs.append((member.key, value))
            }
            return pairs
        }

        private static func queries(
            _ s: inout Settings, _ key: String
        ) throws(SettingsError) -> [(name: String, path: JSONPathQuery)] {
            var list: [(name: String, path: JSONPathQuery)] = []
            for (name, text) in try strings(&s, key) {
                do {
                    list.append((name, try JSONPathQuery(text)))
                } catch {
                    throw SettingsError(
                        reason: "\"\(key)\".\(name): the JSONPath \(text) cannot be read here: \(error.reason)")
                }
            }
            return list
        }
    }
}
