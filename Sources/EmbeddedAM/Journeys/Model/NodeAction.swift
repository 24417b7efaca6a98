import IdentityServer

/// What a node tells the engine after processing (AM's `Action`).
enum NodeAction {
    /// Go on along this outcome.
    case outcome(String)
    /// Send this step and wait for the client's answers (they come back to the same node).
    case send(Step)
    /// End the request with this reply now: a session, a locked account, AM's failure body.
    case reply(ServerReply)
    /// Run the named journey as an inner tree (AM's Inner Tree Evaluator): a frame on the
    /// session's stack, sharing its states. Its success comes back to this node as `true`, its
    /// failure as `false`.
    case enterTree(String)
}
