import AuthBridgeCore

extension AM {
    /// AM's Choice Collector: a ChoiceCallback whose outcomes are the `choices`; the input is
    /// pre-filled with the `defaultChoice`'s index. A single choice sends nothing and goes on
    /// along it, as AM does. AuthBridge's JSON gives `defaultChoice` as an index.
    struct ChoiceCollectorNode: PageChild {
        static let type = NodeType(name: "ChoiceCollectorNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            guard let choices = try s.strings("choices", nonEmpty: true), Set(choices).count == choices.count else {
                throw SettingsError(
                    reason: "\"choices\" must be a non-empty list of distinct choices (each is an outcome)")
            }
            let defaultName = try s.string("defaultChoice") ?? choices[0]
            guard let defaultChoice = choices.firstIndex(of: defaultName) else {
                throw SettingsError(
                    reason:
                        "\"defaultChoice\" \"\(defaultName)\" is not one of the choices (\(choices.joined(separator: ", ")))"
                )
            }
            return .collector(
                ChoiceCollectorNode(
                    prompt: try s.localized("prompt")?.text ?? "", choices: choices, defaultChoice: defaultChoice))
        }
        .journeyFile(
            JourneyFileSyntax(name: "choiceCollector") { (s: inout Settings) throws(SettingsError) in
                guard let choices = try s.strings("choices", nonEmpty: true), Set(choices).count == choices.count else {
                    throw SettingsError(reason: "\"choices\" is required: distinct strings, each also an outcome")
                }
                let prompt = try s.requiredString("prompt")
                let defaultChoice = try s.int("defaultChoice", default: 0, in: 0...(choices.count - 1))
                return [
                    PageNode.lone(
                        ChoiceCollectorNode(prompt: prompt, choices: choices, defaultChoice: defaultChoice),
                        stage: try s.string("stage"))
                ]
            })

        var prompt: String
        var choices: [String]
        var defaultChoice: Int
        var callbackCount: Int { choices.count == 1 ? 0 : 1 }
        var outcomes: [String] { choices }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            callbackCount == 0
                ? []
                : [.choice(prompt: prompt, choices: choices, defaultChoice: defaultChoice, value: answers?[0].value)]
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {}
        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview { PageChildReview() }

        /// The engine has checked the answer is an index of a choice.
        func outcome(_ answers: [CallbackAnswer], context: inout NodeContext) -> NodeAction {
            guard let answer = answers.first else { return .outcome(choices[0]) }
            return .outcome(choices[JourneyValues.optionIndex(answer.value) ?? defaultChoice])
        }
    }
}
