import AuthBridgeCore

/// Everything a node may read or change while it processes (AM's `TreeContext`). The engine
/// builds one per node visit from the journey's session and keeps what the node changed.
struct NodeContext {
    /// What the node is being asked to do.
    enum Entry: Equatable {
        /// The journey reached the node along an outcome.
        case arrived
        /// The client answered the step the node sent: one answer per callback, in order.
        case answered([CallbackAnswer])
        /// A suspended journey was resumed at the node (its e-mailed link was followed).
        case resumed
    }

    let nodeId: String
    let journeyName: String
    let entry: Entry

    /// What the user answered and nodes found, carried from node to node, as in AM. Callbacks
    /// write to dotted paths here (`username`, `objectAttributes.givenName`).
    var shared: JSONObject
    /// What must not be kept with the shared state: the password the user typed and the one-time
    /// password generated (AM's convention). It lasts as long as the journey.
    var transient: JSONObject
    /// This node's own memory across its visits and steps (a Polling Wait's deadline).
    var nodeState: JSONObject

    /// The message and details the journey's failure body carries (Set Failure Details, the
    /// lockout mode's warnings).
    var failureMessage: String?
    var failureDetail: JSONObject

    /// Set by a node that suspends the journey: the engine keeps it under this id until then.
    var suspension: (id: String, expires: Double)?

    /// Whether the journey was started with `noSession=true` (success gives no SSO token).
    let noSession: Bool
    let users: UserDirectory
    let sessions: SessionStore
    /// AM's push notification service: the messages nodes wait on, and the sender.
    let push: PushService
    let clock: Clock
    let random: RandomSource
    let config: EmbeddedAMConfig
    var outbox: Outbox
    /// Chooses outcomes for nodes that cannot be run here; nil when the daemon was given none.
    let scenario: (any JourneyScenario)?
    /// The SSO token the client sent when it started the journey (AM's existing session), if any.
    var ssoToken: String? = nil
    /// The social providers AM reaches over the network (their JWKS, Facebook's Graph API).
    var socialProviders: EmulatedSocialProviders? = nil
    /// The request's query parameters (Apple's form_post `code`, `id_token`, `user` on Android).
    var requestParameters: [String: String] = [:]
    /// Set by a node taking an outcome that can end the journey in failure, saying why (a wrong
    /// password, an unknown user): what `emulator.lastFailure` and the log report if it does.
    var failureReason: JourneyFailure.Reason? = nil

    /// The answers to what this node sent; nil when it has sent nothing yet (first entry, or
    /// after a resume).
    var answers: [CallbackAnswer]? {
        if case .answered(let answers) = entry { return answers }
        return nil
    }

    /// A value as the journey knows it: shared state, and the answers kept in transient state
    /// (the password), so a journey reading `password` finds it as it always did. What nodes keep
    /// in transient state for each other (the generated one-time password) is not read here.
    func value(path: String) -> JSONValue? {
        if let value = shared.value(path: path) { return value }
        guard let key = path.rootKey, CallbackCollector.transientAnswerKeys.contains(key) else { return nil }
        return transient.value(path: path)
    }

    var username: String { JourneyValues.text(shared["username"]) }
    var password: String { JourneyValues.text(value(path: "password")) }
}
