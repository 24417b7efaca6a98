/// One node type of a journey (AM's `Node`): built from its settings by the registry, it
/// processes a visit and answers with an action. Nodes are values; everything that changes lives
/// in the `NodeContext`.
protocol JourneyNode: Sendable {
    /// The outcomes this node can take, in the order errors list them.
    var outcomes: [String] { get }
    /// Outcomes a journey may leave unwired, each with the outcome that takes its place.
    var outcomeFallbacks: [String: String] { get }

    /// Checks made once every setting of the node was read and its outcomes wired (the
    /// callbacks it will send), so that a file's first mistake is the one reported.
    func check() throws(SettingsError)

    func process(_ context: inout NodeContext) -> NodeAction
}

extension JourneyNode {
    var outcomeFallbacks: [String: String] { [:] }
    func check() throws(SettingsError) {}
}
