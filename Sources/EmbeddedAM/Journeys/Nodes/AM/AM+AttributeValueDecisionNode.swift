import AuthBridgeCore

extension AM {
    /// AM's Attribute Value Decision: `PRESENT` — the stored user has `comparisonAttribute`;
    /// `EQUALS` — its value is `comparisonValue`. No user is a node error.
    struct AttributeValueDecisionNode: JourneyNode {
        static let type = NodeType(name: "AttributeValueDecisionNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let operation = try s.string("comparisonOperation", default: "PRESENT")
            guard operation == "PRESENT" || operation == "EQUALS" else {
                throw SettingsError(reason: "\"comparisonOperation\" must be PRESENT or EQUALS, got \(operation)")
            }
            return .node(
                AttributeValueDecisionNode(
                    equals: operation == "EQUALS", attribute: try s.requiredString("comparisonAttribute"),
                    value: try s.string("comparisonValue", default: ""),
                    identityAttribute: try s.string("identityAttribute", default: "userName")))
        }

        var equals: Bool
        var attribute: String
        var value: String
        var identityAttribute: String
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let user = AMIdentity.user(context, attribute: identityAttribute) else {
                return AMFailure.nodeError(
                    &context, "AttributeValueDecisionNode", "no user found by \(identityAttribute)")
            }
            let stored = user.attributes.value(path: attribute.replacingSlashes)
            let result = equals ? (stored.map(JourneyValues.text) == value) : !(stored ?? .null).isNull
            return .outcome(result ? "true" : "false")
        }
    }
}
