import AuthBridgeCore

extension AM {
    /// AM's Increment Login Count: one more login on the user found by `identityAttribute`; no
    /// user, and it goes on silently, as AM does.
    struct IncrementLoginCountNode: JourneyNode {
        static let type = NodeType(name: "IncrementLoginCountNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(IncrementLoginCountNode(identityAttribute: try s.string("identityAttribute", default: "userName")))
        }

        var identityAttribute: String
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            if let user = AMIdentity.user(context, attribute: identityAttribute) {
                context.users.update(username: user.username) { $0.loginCount += 1 }
            }
            return .outcome("outcome")
        }
    }
}
