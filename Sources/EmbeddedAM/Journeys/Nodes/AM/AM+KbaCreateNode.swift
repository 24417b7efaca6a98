import AuthBridgeCore

extension AM {
    /// AM's KBA Definition: IDM's `minimumAnswersToDefine` (2) KbaCreateCallbacks with the
    /// platform's questions; shown again while a question or answer is empty or a question is
    /// repeated. The answers go to transient `objectAttributes.kbaInfo` (Create Object hashes them).
    struct KbaCreateNode: PageChild {
        static let type = NodeType(name: "KbaCreateNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .collector(
                KbaCreateNode(
                    prompt: try s.localized("message")?.text ?? "Select a security question.",
                    allowUserDefined: try s.bool("allowUserDefinedQuestions", default: true)))
        }

        var prompt: String
        var allowUserDefined: Bool
        var callbackCount: Int { AMPlatformSchema.kbaMinimumAnswers }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            (0..<callbackCount).map { _ in
                .kbaCreate(
                    prompt: prompt, predefinedQuestions: AMPlatformSchema.kbaQuestions,
                    allowUserDefinedQuestions: allowUserDefined)
            }
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
            let entries: [JSONValue] = answers.map {
                ["question": $0.inputs["question"] ?? "", "answer": $0.inputs["answer"] ?? ""]
            }
            context.transient.set(path: "objectAttributes.kbaInfo", to: .array(entries))
        }

        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
            let questions = answers.map { JourneyValues.text($0.inputs["question"]) }
            let incomplete = answers.contains {
                JourneyValues.text($0.inputs["question"]).isEmpty || JourneyValues.text($0.inputs["answer"]).isEmpty
            }
            let custom = !allowUserDefined && questions.contains { !AMPlatformSchema.kbaQuestions.contains($0) }
            return PageChildReview(showAgain: incomplete || Set(questions).count < questions.count || custom)
        }
    }
}
