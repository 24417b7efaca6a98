import AuthBridgeCore
import IdentityServer

/// How AM nodes end a journey that cannot go on: AM's failure body (with what Set Failure
/// Details or a lockout set), as when a node throws (`NodeProcessException`), and a logged line
/// saying why, since the client's body cannot.
enum AMFailure {
    static func reply(_ context: NodeContext) -> ServerReply {
        ServerReply(
            status: 401, body: AMErrors.loginFailure(message: context.failureMessage, detail: context.failureDetail))
    }

    /// A node error: logged with the journey and node, then AM's failure.
    static func nodeError(_ context: NodeContext, _ type: String, _ why: String) -> NodeAction {
        logError(
            "journey \(context.journeyName), node \(context.nodeId) (\(type)): \(why); the journey fails, as in AM")
        return .reply(reply(context))
    }
}
