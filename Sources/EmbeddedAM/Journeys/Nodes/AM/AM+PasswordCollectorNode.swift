import AuthBridgeCore

extension AM {
    /// AM's Password Collector: a PasswordCallback "Password", sent again while empty; the
    /// password goes to transient state.
    struct PasswordCollectorNode: PageChild {
        static let type = NodeType(name: "PasswordCollectorNode") {
            (_: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .collector(PasswordCollectorNode())
        }

        var callbackCount: Int { 1 }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            [.password(prompt: "Password")]
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
            guard let value = answers[0].value else { return }
            context.transient["password"] = value
            context.shared["password"] = nil
        }

        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
            PageChildReview(showAgain: JourneyValues.text(answers[0].value).isEmpty)
        }
    }
}
