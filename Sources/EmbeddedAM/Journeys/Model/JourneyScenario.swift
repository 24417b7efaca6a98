/// Chooses outcomes for nodes AuthBridge cannot run itself (DESIGN.md §6: scripts take the
/// outcomes a scenario chooses, never a silent default). The engine hands its scenario to every
/// node through `NodeContext.scenario`. No node type uses it yet; AM's Scripted Decision node
/// will: it asks the scenario for its outcome and fails loudly when there is none.
protocol JourneyScenario: AnyObject {
    /// The outcome `node` (one of `outcomes`) takes, or nil when the scenario has no answer.
    func outcome(journey: String, node: String, outcomes: [String], context: NodeContext) -> String?
}
