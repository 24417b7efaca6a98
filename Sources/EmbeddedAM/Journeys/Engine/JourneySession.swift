import AuthBridgeCore

/// One journey in progress: where it is, what its nodes know, and the step it waits on.
struct JourneySession {
    var id: String
    var journey: JourneyDefinition
    /// The node that sent the step the session waits on (or that suspended it).
    var node: String
    var shared: JSONObject = [:]
    var transient: JSONObject = [:]
    /// Each node's own state, by node id.
    var nodeStates: [String: JSONObject] = [:]
    var failureMessage: String?
    var failureDetail: JSONObject = [:]
    /// The authId of the step sent last: the only one that may answer it.
    var authId = ""
    /// The step sent last; the client's answers are read against its callbacks.
    var step: Step?
    /// When the journey's time is up (its `timeout` after it started or resumed).
    var deadline: Double
    var noSession: Bool

    init(id: String, journey: JourneyDefinition, deadline: Double, noSession: Bool) {
        self.id = id
        self.journey = journey
        self.node = journey.entry
        self.deadline = deadline
        self.noSession = noSession
    }
}
