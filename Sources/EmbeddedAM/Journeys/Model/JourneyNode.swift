/// One node of a journey (AM's `Node`): built from its settings by its type in the catalog
/// (`NodeRegistry`), it processes a visit and answers with an action. Nodes are values;
/// everything that changes lives in the `NodeContext`.
protocol JourneyNode: Sendable {
    /// The outcomes this node can take (AM's outcome ids), in the order errors list them.
    var outcomes: [String] { get }

    func process(_ context: inout NodeContext) -> NodeAction
}
