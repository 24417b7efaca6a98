import AuthBridgeCore

extension AM {
    /// AM's Message node: a TextOutputCallback with the message and a ConfirmationCallback
    /// offering `messageYes`/`messageNo` ("Yes"/"No" when empty). AM pre-fills the input with 0
    /// while `defaultOption` says 1 (forgerock-javascript-sdk `e2e/mock-api/src/app/responses.js`), so an untouched answer is "yes".
    /// Index 0 → `true`, 1 → `false`; with `stateField` the index also goes to shared state.
    struct MessageNode: PageChild {
        static let type = NodeType(name: "MessageNode") { (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            guard let message = try s.localized("message") else {
                throw SettingsError(reason: "\"message\" is required: a map of locale → text")
            }
            let stateField = try s.string("stateField")
            return .collector(
                MessageNode(
                    message: message.text, yes: try s.localized("messageYes")?.text ?? "Yes",
                    no: try s.localized("messageNo")?.text ?? "No",
                    stateField: stateField.flatMap { $0.isEmpty ? nil : $0 }))
        }

        var message: String
        var yes: String
        var no: String
        var stateField: String?
        var callbackCount: Int { 2 }
        var outcomes: [String] { ["true", "false"] }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            [
                .textOutput(message: message, messageType: "0"),
                .confirmation(
                    prompt: "", messageType: 0, options: [yes, no], optionType: -1, defaultOption: 1, preset: 0,
                    value: answers?[1].value),
            ]
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
            // A key, not a path: AM puts the field name into shared state as it is.
            if let stateField { context.shared[stateField] = .int(Int64(Self.index(answers))) }
        }

        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview { PageChildReview() }

        func outcome(_ answers: [CallbackAnswer], context: inout NodeContext) -> NodeAction {
            .outcome(Self.index(answers) == 0 ? "true" : "false")
        }

        /// The engine has checked the answer is an option index; none sent is AM's pre-filled 0.
        private static func index(_ answers: [CallbackAnswer]) -> Int {
            JourneyValues.optionIndex(answers[1].value) ?? 0
        }
    }
}
