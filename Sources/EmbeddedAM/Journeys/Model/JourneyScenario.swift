import AuthBridgeCore

/// Chooses outcomes for nodes AuthBridge cannot run itself (docs/journeys.md: scripts take the
/// outcomes a scenario chooses, never a silent default). The engine hands its scenario to every
/// node through `NodeContext.scenario`; AM's Scripted Decision node, and node types AuthBridge
/// does not know when they were let in, ask it for their outcome and fail loudly without one.
protocol JourneyScenario: AnyObject {
    /// What the scenario chose for `node` (its id, or the name its tree gives it) of `journey`;
    /// nil when it has no answer.
    func choice(journey: String, node: String, displayName: String?) -> ScenarioChoice?
    /// The response the scenario gives an HTTP Client node (`RESTNode`) in place of a real call;
    /// nil when it has none.
    func response(journey: String, node: String, displayName: String?) -> ScenarioResponse?
}

/// One node's choice: the outcome it takes, and the callbacks it sends first, as the tenant's
/// script would (answered, they are kept like a page's, then the outcome is taken).
struct ScenarioChoice: Sendable {
    var outcome: String
    var callbacks: [CallbackCollector] = []
}

/// What an HTTP Client node's call returns under a scenario: a status and a body (JSON, or a
/// string taken as the body's text), or a failure to reach the service (the node's `ERROR`).
enum ScenarioResponse: Sendable, Equatable {
    case reply(status: Int, body: JSONValue)
    case unreachable(reason: String)
}
