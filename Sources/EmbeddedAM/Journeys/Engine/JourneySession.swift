import AuthBridgeCore

/// One journey in progress: where it is, what its nodes know, and the step it waits on.
struct JourneySession {
    var id: String
    /// The journey the client started: its name is the authId's `authIndexValue`, its timeout
    /// the session's.
    var journey: JourneyDefinition
    /// The tree running now: the started journey, or an inner tree it entered.
    var current: JourneyDefinition
    /// The trees that entered inner trees, innermost last, each with the evaluator node that
    /// takes the inner tree's result as its outcome.
    var frames: [(journey: JourneyDefinition, evaluator: String)] = []
    /// The SSO token the client sent with the journey's first request, if any (Get Session Data).
    var ssoToken: String?
    /// The node that sent the step the session waits on (or that suspended it).
    var node: String
    var shared: JSONObject = [:]
    var transient: JSONObject = [:]
    /// Each node's own state, by node id.
    var nodeStates: [String: JSONObject] = [:]
    var failureMessage: String?
    var failureDetail: JSONObject = [:]
    /// The last reason a node gave for a failing outcome, and the node (`JourneyFailure`).
    var lastReason: (reason: JourneyFailure.Reason, node: JourneyFailure.NodeRef)?
    /// The authId of the step sent last: the only one that may answer it.
    var authId = ""
    /// The step sent last; the client's answers are read against its callbacks.
    var step: Step?
    /// When the journey's time is up (its `timeout` after it started or resumed).
    var deadline: Double
    /// When it last sent a step, in the engine's own count: the longest idle go first when the
    /// journeys in progress must be capped (the clock may stand still).
    var lastActive: UInt64 = 0
    var noSession: Bool

    /// Node state is kept per tree once inner trees run, so a tree entered twice, or two trees
    /// with a node id in common, never share a node's memory.
    func stateKey(_ node: String) -> String { frames.isEmpty ? node : current.name + "\u{0}" + node }

    init(id: String, journey: JourneyDefinition, deadline: Double, noSession: Bool) {
        self.id = id
        self.journey = journey
        self.current = journey
        self.node = journey.entry
        self.deadline = deadline
        self.noSession = noSession
    }
}
