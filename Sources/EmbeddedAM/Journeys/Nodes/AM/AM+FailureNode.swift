import AuthBridgeCore
import IdentityServer

extension AM {
    /// AM's Failure: the 401 "Login failure" body, with the message and details set on the way.
    /// Exports reach it by AM's static id; AuthBridge's JSON names it `failure`.
    struct FailureNode: JourneyNode {
        static let type = NodeType(
            name: "FailureNode",
            journeyFile: JourneyFileSyntax(name: "failure") { (_: inout Settings) throws(SettingsError) in
                [FailureNode()]
            })

        var outcomes: [String] { [] }

        func process(_ context: inout NodeContext) -> NodeAction {
            .reply(
                ServerReply(
                    status: 401,
                    body: AMErrors.loginFailure(message: context.failureMessage, detail: context.failureDetail)))
        }
    }
}
