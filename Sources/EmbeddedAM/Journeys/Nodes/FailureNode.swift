import IdentityServer

/// AM's Failure: the 401 "Login failure" body, with the message and details set on the way.
struct FailureNode: JourneyNode {
    static let type = NodeType(name: "failure") { (_: inout Settings) throws(SettingsError) in FailureNode() }

    var outcomes: [String] { [] }

    func process(_ context: inout NodeContext) -> NodeAction {
        .reply(ServerReply(status: 401, body: AMErrors.loginFailure(message: context.failureMessage, detail: context.failureDetail)))
    }
}
