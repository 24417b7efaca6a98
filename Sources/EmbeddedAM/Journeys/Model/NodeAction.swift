import IdentityServer

/// What a node tells the engine after processing (AM's `Action`).
enum NodeAction {
    /// Go on along this outcome.
    case outcome(String)
    /// Send this step and wait for the client's answers (they come back to the same node).
    case send(Step)
    /// End the request with this reply now: a session, a locked account, AM's failure body.
    case reply(ServerReply)
}
