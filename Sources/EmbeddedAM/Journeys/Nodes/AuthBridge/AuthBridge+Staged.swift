extension AuthBridge {
    /// A lone node whose steps carry the `stage` AuthBridge's JSON lets any node that sends a
    /// step have (in AM only a Page node has one). The node is AM's; only the stage is added.
    struct Staged: JourneyNode {
        var node: any JourneyNode
        var stage: String

        /// The node, or the node staged when the file gives a stage.
        static func node(_ node: any JourneyNode, stage: String?) -> any JourneyNode {
            guard let stage else { return node }
            return Staged(node: node, stage: stage)
        }

        var outcomes: [String] { node.outcomes }

        func process(_ context: inout NodeContext) -> NodeAction {
            let action = node.process(&context)
            guard case .send(var step) = action else { return action }
            step.stage = stage
            return .send(step)
        }
    }
}
