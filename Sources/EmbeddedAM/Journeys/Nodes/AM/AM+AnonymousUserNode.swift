import AuthBridgeCore

extension AM {
    /// AM's Anonymous User Mapping (`ForgeRock/am-external`
    /// auth-nodes/…/AnonymousUserNode.java): the journey's user becomes `anonymousUserName`
    /// (shared `username`), with no credentials asked. As in AM, that account must exist in the
    /// directory and be active for the journey's Success to give it a session (seed it with
    /// `--users` or `emulator.addUser`); otherwise Success fails with AM's "Login failure".
    struct AnonymousUserNode: JourneyNode {
        static let type = NodeType(name: "AnonymousUserNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let name = try s.string("anonymousUserName", default: "anonymous")
            guard !name.isEmpty else {
                throw SettingsError(
                    reason: "\"anonymousUserName\" must name the anonymous account (a non-empty string)")
            }
            return .node(AnonymousUserNode(anonymousUserName: name))
        }

        var anonymousUserName: String
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            context.shared["username"] = .string(anonymousUserName)
            return .outcome("outcome")
        }
    }
}
