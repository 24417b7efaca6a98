import AuthBridgeCore

extension AM {
    /// AM's OTP Collector Decision: a PasswordCallback "One Time Password"; `true` when the
    /// answer is the generated code and it is not older than `passwordExpiryTime` minutes, else
    /// `false` (an empty answer or no code generated included, as AM compares them).
    struct OneTimePasswordCollectorDecisionNode: JourneyNode {
        static let type = AMNodeType(name: "OneTimePasswordCollectorDecisionNode") { (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(OneTimePasswordCollectorDecisionNode(expiryMinutes: try s.int("passwordExpiryTime", default: 5, in: 1...1440)))
        }

        var expiryMinutes: Int
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let answers = context.answers else { return .send(Step(callbacks: [.password(prompt: "One Time Password")])) }
            let typed = JourneyValues.text(answers[0].value)
            guard case .string(let code)? = context.transient[OneTimePasswordGeneratorNode.codeKey],
                let made = context.transient[OneTimePasswordGeneratorNode.timestampKey]?.doubleValue
            else { return .outcome("false") }
            let fresh = context.clock.now - made <= Double(expiryMinutes * 60)
            return .outcome(fresh && !typed.isEmpty && typed == code ? "true" : "false")
        }
    }
}
