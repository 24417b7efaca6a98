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

    /// A node error: logged with the journey and node, given as the journey's failure reason
    /// (`code`, `node_error` unless the caller names it better), then AM's failure.
    static func nodeError(
        _ context: inout NodeContext, _ type: String, _ why: String, code: String = "node_error",
        _ fields: JSONObject = [:]
    ) -> NodeAction {
        context.failureReason = JourneyFailure.Reason(code, why, fields)
        logError(
            "journey \(context.journeyName), node \(context.nodeId) (\(type)): \(why); the journey fails, as in AM")
        return .reply(reply(context))
    }
}
