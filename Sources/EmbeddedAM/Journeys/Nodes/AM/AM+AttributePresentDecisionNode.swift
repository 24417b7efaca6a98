import AuthBridgeCore

extension AM {
    /// AM's Attribute Present Decision: true when the stored user has the attribute (private
    /// ones too: every user has a `password`). No user is a node error.
    struct AttributePresentDecisionNode: JourneyNode {
        static let type = NodeType(name: "AttributePresentDecisionNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                AttributePresentDecisionNode(
                    attribute: try s.requiredString("presentAttribute"),
                    identityAttribute: try s.string("identityAttribute", default: "userName")))
        }

        var attribute: String
        var identityAttribute: String
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let user = AMIdentity.user(context, attribute: identityAttribute) else {
                return AMFailure.nodeError(
                    &context, "AttributePresentDecisionNode", "no user found by \(identityAttribute)")
            }
            let present =
                attribute == "password" || attribute == "userName"
                || !(user.attributes.value(path: attribute.replacingSlashes) ?? .null).isNull
            return .outcome(present ? "true" : "false")
        }
    }
}
