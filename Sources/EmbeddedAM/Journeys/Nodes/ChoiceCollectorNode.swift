import AuthBridgeCore

/// AM's Choice Collector: a ChoiceCallback step whose outcomes are the choices.
struct ChoiceCollectorNode: JourneyNode {
    static let type = NodeType(name: "choiceCollector") { (s: inout Settings) throws(SettingsError) in try ChoiceCollectorNode(&s) }

    var prompt: String
    var choices: [String]
    var defaultChoice: Int
    var stage: String?

    var outcomes: [String] { choices }

    init(_ s: inout Settings) throws(SettingsError) {
        guard let choices = try s.strings("choices", nonEmpty: true), Set(choices).count == choices.count else {
            throw SettingsError(reason: "\"choices\" is required: distinct strings, each also an outcome")
        }
        self.choices = choices
        prompt = try s.requiredString("prompt")
        defaultChoice = try s.int("defaultChoice", default: 0, in: 0...(choices.count - 1))
        stage = try s.string("stage")
    }

    func process(_ context: inout NodeContext) -> NodeAction {
        guard let answers = context.answers else {
            return .send(Step(stage: stage, callbacks: [.choice(prompt: prompt, choices: choices, defaultChoice: defaultChoice)]))
        }
        // The engine has checked the answer is an index of a choice; the journey can read it as `choice`.
        if let index = answers[0].value { context.shared.set(path: "choice", to: index) }
        return .outcome(choices[JourneyValues.optionIndex(answers[0].value) ?? 0])
    }
}
