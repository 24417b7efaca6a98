import AuthBridgeCore

extension AM {
    /// AM's Accept Terms and Conditions: the active terms (platform default version "0.0") in a
    /// TermsAndConditionsCallback; not accepted, it is sent again (AM does not fail). Accepted,
    /// `termsAccepted {acceptDate, termsVersion}` goes to shared state for Create/Patch Object.
    struct AcceptTermsAndConditionsNode: PageChild {
        static let type = NodeType(name: "AcceptTermsAndConditionsNode") {
            (_: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .collector(AcceptTermsAndConditionsNode())
        }

        var callbackCount: Int { 1 }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            [
                .termsAndConditions(
                    version: AMPlatformSchema.termsVersion, terms: AMPlatformSchema.terms,
                    createDate: AMPlatformSchema.termsCreateDate,
                    value: answers?[0].value)
            ]
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
            guard Self.accepted(answers[0]) else { return }
            context.shared["termsAccepted"] = [
                "acceptDate": .string(ISO8601.formatMillis(context.clock.now)),
                "termsVersion": .string(AMPlatformSchema.termsVersion),
            ]
        }

        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
            PageChildReview(showAgain: !Self.accepted(answers[0]))
        }

        /// Flutter sends booleans as text.
        private static func accepted(_ answer: CallbackAnswer) -> Bool {
            answer.value?.boolValue ?? (answer.value?.stringValue == "true")
        }
    }
}
