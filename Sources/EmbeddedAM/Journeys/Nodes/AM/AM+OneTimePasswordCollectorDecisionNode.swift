import AuthBridgeCore

extension AM {
    /// AM's OTP Collector Decision: a PasswordCallback "One Time Password"; `true` when the
    /// answer is the generated code and it is not older than `passwordExpiryTime` minutes, else
    /// `false` (an empty answer, no code generated or an expired one included, as AM compares
    /// them). AuthBridge's JSON (`otpVerify`) gives the age in seconds (`validity`), and accepts
    /// the `expired` outcome older files wire: never taken.
    struct OneTimePasswordCollectorDecisionNode: JourneyNode {
        static let type = NodeType(name: "OneTimePasswordCollectorDecisionNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                OneTimePasswordCollectorDecisionNode(
                    expiry: Double(try s.int("passwordExpiryTime", default: 5, in: 1...1440) * 60)))
        }
        .journeyFile(
            JourneyFileSyntax(name: "otpVerify", retiredOutcomes: ["expired"]) {
                (s: inout Settings) throws(SettingsError) in
                let node = OneTimePasswordCollectorDecisionNode(
                    expiry: try s.seconds("validity", default: 300)!,
                    prompt: try s.string("prompt", default: "One Time Password"))
                return [AuthBridge.Staged.node(node, stage: try s.string("stage"))]
            })

        /// Seconds.
        var expiry: Double
        var prompt = "One Time Password"
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let answers = context.answers else { return .send(Step(callbacks: [.password(prompt: prompt)])) }
            let typed = JourneyValues.text(answers[0].value)
            guard case .string(let code)? = context.transient[OneTimePasswordGeneratorNode.codeKey],
                let made = context.transient[OneTimePasswordGeneratorNode.timestampKey]?.doubleValue
            else {
                context.failureReason = JourneyFailure.Reason(
                    "no_one_time_password", "no one-time password was generated")
                return .outcome("false")
            }
            guard context.clock.now - made <= expiry else {
                context.failureReason = JourneyFailure.Reason(
                    "one_time_password_expired", "the one-time password expired (after \(Int(expiry)) s)")
                return .outcome("false")
            }
            guard !typed.isEmpty, typed == code else {
                context.failureReason = JourneyFailure.Reason(
                    "wrong_one_time_password", "the one-time password is wrong")
                return .outcome("false")
            }
            return .outcome("true")
        }
    }
}
