import AuthBridgeCore

extension AM {
    /// AM's OATH Token Verifier node (`OathTokenVerifierNode`, `OathTotpVerifier`,
    /// `OathHotpVerifier` in ForgeRock/am-external, releases/8.0.2, auth-nodes). The device is the
    /// one in shared state when the registration postponed storing it, else the user's; none →
    /// `notRegisteredOutcome` with shared `mfaMethod: "oath"`. The step: a NameCallback "Enter
    /// verification code" and a Confirmation ["Submit"] (+ "Use recovery code" when
    /// `isRecoveryCodeAllowed`; option 1 → `recoveryCodeOutcome`). A code must have 6 or 8
    /// characters; its length, not the registration's, sets the digits compared.
    ///
    /// The code is checked by `OathVerifier` (this node's `algorithm`, `hotpWindowSize`,
    /// `totpTimeInterval`, `totpTimeSteps`, `totpHashAlgorithm`, `maximumAllowedClockDrift`). On
    /// success the device is saved (also a postponed one) with its last access.
    struct OathTokenVerifierNode: JourneyNode {
        static let type = NodeType(name: "OathTokenVerifierNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                OathTokenVerifierNode(
                    verifier: OathVerifier(
                        hotp: try OathSettings.choice(&s, "algorithm", OathSettings.algorithms),
                        hotpWindowSize: try s.int("hotpWindowSize", default: 100, in: 1...100_000),
                        period: try s.int("totpTimeInterval", default: 30, in: 1...86_400),
                        timeSteps: try s.int("totpTimeSteps", default: 2, in: 1...1000),
                        hashAlgorithm: try OathSettings.choice(&s, "totpHashAlgorithm", OathSettings.hashAlgorithms),
                        maximumAllowedClockDrift: try s.int("maximumAllowedClockDrift", default: 5, in: 1...100_000)),
                    recoveryCodeAllowed: try s.bool("isRecoveryCodeAllowed", default: false)))
        }

        var verifier: OathVerifier
        var recoveryCodeAllowed: Bool

        var outcomes: [String] {
            ["successOutcome", "failureOutcome", "notRegisteredOutcome"]
                + (recoveryCodeAllowed ? ["recoveryCodeOutcome"] : [])
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard !context.username.isEmpty else {
                return AMFailure.nodeError(&context, "OathTokenVerifierNode", "expected username to be set")
            }
            let postponed = context.shared[OathSharedState.profileKey] != nil
            let stored = context.users.find(username: context.username)?.devices.oath.first
            guard var device = postponed ? OathSharedState.device(context.shared) : stored else {
                context.shared["mfaMethod"] = "oath"
                context.failureReason = JourneyFailure.Reason(
                    "oath_not_registered", "\(context.username) has no OATH device registered")
                return .outcome("notRegisteredOutcome")
            }
            guard let answers = context.answers, answers.count == 2 else {
                var options = ["Submit"]
                if recoveryCodeAllowed { options.append("Use recovery code") }
                return .send(
                    Step(callbacks: [
                        .name(prompt: "Enter verification code"),
                        .confirmation(
                            prompt: "", messageType: 0, options: options, optionType: -1, defaultOption: 0, preset: 0),
                    ]))
            }
            if recoveryCodeAllowed, JourneyValues.optionIndex(answers[1].value) == 1 {
                return .outcome("recoveryCodeOutcome")
            }
            let code = JourneyValues.text(answers[0].value)
            guard verifier.verify(code, device: &device, now: Int64(context.clock.now.rounded(.down))) else {
                context.failureReason = JourneyFailure.Reason(
                    "wrong_oath_code", "the OATH code is not valid now for \(context.username)'s device")
                return .outcome("failureOutcome")
            }
            device.record.lastAccessDate = context.clock.now
            if postponed, stored?.uuid != device.uuid { device.record.createdDate = context.clock.now }
            _ = context.users.update(username: context.username) { user in
                if let index = user.devices.oath.firstIndex(where: { $0.uuid == device.uuid }) {
                    user.devices.oath[index] = device
                } else {
                    user.devices.oath = [device]
                }
            }
            return .outcome("successOutcome")
        }
    }
}
