import AuthBridgeCore

extension AM {
    /// A node AuthBridge cannot run: AM's Scripted Decision node (its script needs AM's
    /// bindings), or, when let in with `--unknown-nodes scenario`, a type AuthBridge does not
    /// know. It never picks a path by itself: the scenario chooses its outcome (`--scenario`,
    /// `emulator.setNodeOutcome`), and may give it callbacks to send first, as the script would.
    /// Without a choice the journey fails with AM's failure and a logged line naming the node,
    /// its script and its outcomes. In a Page node it sends nothing and decides the same way.
    struct ScenarioNode: JourneyNode, PageChild {
        static let scriptedType = NodeType(name: "ScriptedDecisionNode") {
            (s: inout Settings, source: AMNodeSource) throws(SettingsError) in
            guard let outcomes = try s.strings("outcomes", nonEmpty: true), Set(outcomes).count == outcomes.count else {
                throw SettingsError(reason: "\"outcomes\" must be a non-empty list of distinct outcome names")
            }
            let script = try s.string("script")
            let name = script.flatMap(source.scriptName) ?? script ?? "?"
            return .node(
                ScenarioNode(
                    nodeId: source.nodeId, type: "ScriptedDecisionNode", what: "script \"\(name)\"",
                    displayName: source.displayName, outcomes: outcomes))
        }

        static func unknown(_ source: AMNodeSource) -> ScenarioNode {
            ScenarioNode(
                nodeId: source.nodeId, type: "unknown type", what: "a node type AuthBridge does not run",
                displayName: source.displayName, outcomes: source.exportedOutcomes)
        }

        /// Its own id: in a page, the context's node is the page.
        var nodeId: String
        var type: String
        /// What the log names: the script, or that the type is unknown.
        var what: String
        var displayName: String?
        var outcomes: [String]
        var callbackCount: Int { 0 }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let choice = choice(context) else { return refuse(&context) }
            if choice.callbacks.isEmpty { return .outcome(choice.outcome) }
            guard let answers = context.answers else {
                return .send(
                    Step(callbacks: choice.callbacks.flatMap { $0.callbacks(context, answers: nil, failed: [:]) }))
            }
            // Answers to callbacks a choice made since the step was sent are not read.
            guard answers.count == choice.callbacks.reduce(0, { $0 + $1.callbackCount }) else {
                return .outcome(choice.outcome)
            }
            var round = PageRound()
            let shares = pageShares(answers, callbackCounts: choice.callbacks.map(\.callbackCount))
            for (collector, share) in zip(choice.callbacks, shares) {
                collector.take(share, into: &context, round: &round)
            }
            return .outcome(choice.outcome)
        }

        // MARK: in a page

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] { [] }
        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {}
        func outcome(_ answers: [CallbackAnswer], context: inout NodeContext) -> NodeAction {
            guard let choice = choice(context) else { return refuse(&context) }
            return .outcome(choice.outcome)
        }

        private func choice(_ context: NodeContext) -> ScenarioChoice? {
            guard
                let choice = context.scenario?.choice(
                    journey: context.journeyName, node: nodeId, displayName: displayName),
                outcomes.contains(choice.outcome)
            else { return nil }
            return choice
        }

        private func refuse(_ context: inout NodeContext) -> NodeAction {
            let name = displayName.map { " \"\($0)\"" } ?? ""
            context.failureReason = JourneyFailure.Reason(
                "no_scenario_outcome",
                "no scenario chose an outcome for \(type) (\(what)); its outcomes are \(outcomes.joined(separator: ", "))"
            )
            logError(
                "journey \(context.journeyName), node \(nodeId)\(name) (\(type), \(what)): no outcome chosen; its outcomes are \(outcomes.joined(separator: ", ")). Choose one in a --scenario file or with emulator.setNodeOutcome {journey, node, outcome}; the journey fails with AM's Login failure"
            )
            return .reply(AMFailure.reply(context))
        }
    }
}
