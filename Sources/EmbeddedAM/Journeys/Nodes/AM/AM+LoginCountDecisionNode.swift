import AuthBridgeCore

extension AM {
    /// AM's Login Count Decision: `AT` — true when the user's login count equals `amount`;
    /// `EVERY` — when it is a multiple of it. No user is a node error.
    struct LoginCountDecisionNode: JourneyNode {
        static let type = NodeType(name: "LoginCountDecisionNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let interval = try s.string("interval", default: "AT")
            guard interval == "AT" || interval == "EVERY" else {
                throw SettingsError(reason: "\"interval\" must be AT or EVERY, got \(interval)")
            }
            return .node(
                LoginCountDecisionNode(
                    every: interval == "EVERY", amount: try s.int("amount", default: 1, in: 1...1_000_000),
                    identityAttribute: try s.string("identityAttribute", default: "userName")))
        }

        var every: Bool
        var amount: Int
        var identityAttribute: String
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let user = AMIdentity.user(context, attribute: identityAttribute) else {
                return AMFailure.nodeError(&context, "LoginCountDecisionNode", "no user found by \(identityAttribute)")
            }
            let count = user.loginCount
            return .outcome((every ? count > 0 && count % amount == 0 : count == amount) ? "true" : "false")
        }
    }
}
