import AuthBridgeCore

/// AM's OTP Collector Decision: asks for the one-time code and compares it with the one
/// generated. `true`, `false`, or `expired` (which a journey may leave to go where `false` goes).
struct OTPVerifyNode: JourneyNode {
    static let type = NodeType(name: "otpVerify") { (s: inout Settings) throws(SettingsError) in try OTPVerifyNode(&s) }

    var prompt: String
    var stage: String?

    var outcomes: [String] { ["true", "false", "expired"] }
    var outcomeFallbacks: [String: String] { ["expired": "false"] }

    init(_ s: inout Settings) throws(SettingsError) {
        prompt = try s.string("prompt", default: "One Time Password")
        stage = try s.string("stage")
    }

    func process(_ context: inout NodeContext) -> NodeAction {
        guard let answers = context.answers else { return .send(Step(stage: stage, callbacks: [.password(prompt: prompt)])) }
        let typed = answers[0].value
        // The typed code has always been kept in shared state, where journeys can read it.
        if let typed { context.shared.set(path: "oneTimePassword", to: typed) }
        guard case .string(let code)? = context.transient[OTPGenerateNode.codeKey],
            let expires = context.transient[OTPGenerateNode.expiryKey]?.doubleValue
        else { return .outcome("false") }
        if context.clock.now >= expires { return .outcome("expired") }
        let text = JourneyValues.text(typed)
        return .outcome(!text.isEmpty && text == code ? "true" : "false")
    }
}
