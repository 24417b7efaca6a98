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
    /// TOTP (`algorithm` TOTP, this node's `totpTimeInterval` and `totpHashAlgorithm`): the step
    /// is the clock's plus the device's saved drift; a code of the last accepted step is refused
    /// (so a code works once), then the current step, then ±1…±`totpTimeSteps` are tried (a later
    /// step before the earlier one); an earlier step's code is refused while the last login is
    /// within the window. An accepted step more than `maximumAllowedClockDrift` steps from the
    /// clock is refused ("out of sync"); otherwise it becomes the last login and its distance the
    /// new drift. HOTP: HMAC-SHA1 at counters `counter`…`counter + hotpWindowSize`, with the
    /// device's truncation offset; a match sets the counter past it. AM computes a checksum
    /// device's code one digit longer than the code typed, so such a device never verifies —
    /// here too. On success the device is saved (also a postponed one) with its last access.
    struct OathTokenVerifierNode: JourneyNode {
        static let type = NodeType(name: "OathTokenVerifierNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                OathTokenVerifierNode(
                    hotp: try OathSettings.choice(&s, "algorithm", OathSettings.algorithms),
                    hotpWindowSize: try s.int("hotpWindowSize", default: 100, in: 1...100_000),
                    period: try s.int("totpTimeInterval", default: 30, in: 1...86_400),
                    timeSteps: try s.int("totpTimeSteps", default: 2, in: 1...1000),
                    hashAlgorithm: try OathSettings.choice(&s, "totpHashAlgorithm", OathSettings.hashAlgorithms),
                    maximumAllowedClockDrift: try s.int("maximumAllowedClockDrift", default: 5, in: 1...100_000),
                    recoveryCodeAllowed: try s.bool("isRecoveryCodeAllowed", default: false)))
        }

        var hotp: Bool
        var hotpWindowSize: Int
        var period: Int
        var timeSteps: Int
        var hashAlgorithm: OATH.Algorithm
        var maximumAllowedClockDrift: Int
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
            guard verify(code, device: &device, now: Int64(context.clock.now.rounded(.down))) else {
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

        /// Whether the code is good now, updating the device's counter or last step and drift.
        func verify(_ code: String, device: inout OathDeviceProfile, now: Int64) -> Bool {
            guard let digits = OATH.Digits(rawValue: code.utf16.count) else { return false }
            return hotp
                ? verifyHOTP(code, digits: digits, device: &device)
                : verifyTOTP(code, digits: digits, device: &device, now: now)
        }

        private func verifyHOTP(_ code: String, digits: OATH.Digits, device: inout OathDeviceProfile) -> Bool {
            guard !device.checksumDigit, device.counter >= 0 else { return false }
            for step in 0...hotpWindowSize {
                let counter = device.counter + step
                let expected = OATH.hotp(
                    secret: device.sharedSecret, counter: UInt64(counter), digits: digits, algorithm: .sha1,
                    truncationOffset: device.truncationOffset)
                if ConstantTime.equal(expected, code) {
                    device.counter = counter + 1
                    return true
                }
            }
            return false
        }

        private func verifyTOTP(
            _ code: String, digits: OATH.Digits, device: inout OathDeviceProfile, now: Int64
        ) -> Bool {
            let interval = Int64(period)
            let lastLoginStep = device.lastLogin / interval
            guard lastLoginStep >= 0 else { return false }
            let clockStep = now / interval
            let localStep = clockStep + device.clockDriftSeconds / interval
            if lastLoginStep == localStep { return false }
            let steps = Int64(timeSteps)
            let sameWindow = lastLoginStep >= localStep - steps && lastLoginStep <= localStep + steps
            func matches(_ step: Int64) -> Bool {
                ConstantTime.equal(
                    OATH.hotp(
                        secret: device.sharedSecret, counter: UInt64(bitPattern: step), digits: digits,
                        algorithm: hashAlgorithm), code)
            }
            func accept(_ step: Int64) -> Bool {
                let drift = step - clockStep
                guard abs(drift) <= Int64(maximumAllowedClockDrift) else { return false }
                device.lastLogin = step * interval
                device.clockDriftSeconds = drift * interval
                return true
            }
            if matches(localStep) { return accept(localStep) }
            for offset in 1...steps {
                if matches(localStep + offset) { return accept(localStep + offset) }
                if matches(localStep - offset) { return sameWindow ? false : accept(localStep - offset) }
            }
            return false
        }
    }
}
