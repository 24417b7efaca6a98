/// Chooses outcomes for nodes AuthBridge cannot run itself (docs/journeys.md: scripts take the
/// outcomes a scenario chooses, never a silent default). The engine hands its scenario to every
/// node through `NodeContext.scenario`; AM's Scripted Decision node, and node types AuthBridge
/// does not know when they were let in, ask it for their outcome and fail loudly without one.
protocol JourneyScenario: AnyObject {
    /// What the scenario chose for `node` (its id, or the name its tree gives it) of `journey`;
    /// nil when it has no answer.
    func choice(journey: String, node: String, displayName: String?) -> ScenarioChoice?
}

/// One node's choice: the outcome it takes, and the callbacks it sends first, as the tenant's
/// script would (answered, they are kept like a page's, then the outcome is taken).
struct ScenarioChoice: Sendable {
    var outcome: String
    var callbacks: [CallbackCollector] = []
}
