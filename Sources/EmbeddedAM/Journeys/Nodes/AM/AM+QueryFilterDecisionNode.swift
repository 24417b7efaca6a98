import AuthBridgeCore

extension AM {
    /// AM's Query Filter Decision: the CREST filter on the stored user (`QueryFilter`). No user
    /// is a node error; a filter that does not parse stops the start.
    struct QueryFilterDecisionNode: JourneyNode {
        static let type = NodeType(name: "QueryFilterDecisionNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                QueryFilterDecisionNode(
                    filter: try QueryFilter.parse(try s.requiredString("queryFilter")),
                    identityAttribute: try s.string("identityAttribute", default: "userName")))
        }

        var filter: QueryFilter
        var identityAttribute: String
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let user = AMIdentity.user(context, attribute: identityAttribute) else {
                return AMFailure.nodeError(&context, "QueryFilterDecisionNode", "no user found by \(identityAttribute)")
            }
            var object = user.attributes
            object["userName"] = .string(user.username)
            return .outcome(filter.matches(object) ? "true" : "false")
        }
    }
}
