import AuthBridgeCore

extension AM {
    /// AM's Username Collector: a NameCallback "User Name", sent again while empty; stores `username`.
    struct UsernameCollectorNode: PageChild {
        static let type = NodeType(name: "UsernameCollectorNode") {
            (_: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .collector(UsernameCollectorNode())
        }

        var callbackCount: Int { 1 }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            [.name(prompt: "User Name", value: answers?[0].value)]
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
            if let value = answers[0].value { context.shared["username"] = value }
        }

        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
            PageChildReview(showAgain: JourneyValues.text(answers[0].value).isEmpty)
        }
    }
}
