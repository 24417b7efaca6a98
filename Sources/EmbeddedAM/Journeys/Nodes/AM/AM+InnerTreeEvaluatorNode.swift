import AuthBridgeCore

extension AM {
    /// AM's Inner Tree Evaluator: runs the named tree with the same shared and transient state;
    /// its steps reach the client as ordinary steps. Inner success → `true`, failure → `false`.
    /// Loaders check that the tree exists and that inner trees never enter themselves.
    struct InnerTreeEvaluatorNode: JourneyNode {
        static let type = NodeType(name: "InnerTreeEvaluatorNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(InnerTreeEvaluatorNode(tree: try s.requiredString("tree")))
        }

        var tree: String
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction { .enterTree(tree) }
    }

    /// Stands at the end of an outcome the tree leaves unconnected: AM fails the journey when a
    /// node takes one; the log names the node and the outcome.
    struct UnconnectedOutcome: JourneyNode {
        var node: String
        var outcome: String
        var outcomes: [String] { [] }

        func process(_ context: inout NodeContext) -> NodeAction {
            logError(
                "journey \(context.journeyName): node \(node) took its outcome \"\(outcome)\", which the tree does not connect; the journey fails, as in AM"
            )
            return .reply(AMFailure.reply(context))
        }
    }
}
