import AuthBridgeCore
import IdentityServer

extension AM {
    /// AM's Data Store Decision: `username` and the transient password against the directory.
    /// `true` or `false`; a locked (inactive) user ends the journey with "User Locked Out.".
    struct DataStoreDecisionNode: JourneyNode {
        static let type = AMNodeType(name: "DataStoreDecisionNode", asksForInput: false) { (_: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(DataStoreDecisionNode())
        }

        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            if let lock = context.users.find(username: context.username)?.lock, lock.holds(at: context.clock.now) {
                return .reply(ServerReply(status: 401, body: AMErrors.userLockedOut))
            }
            return .outcome(context.users.verify(username: context.username, password: context.password) != nil ? "true" : "false")
        }
    }
}
