import AuthBridgeCore
import EmbeddedAM

/// `sendOneTimeCode`: a six-digit code to the found user's e-mail (or phone), through the
/// server's outbox, where `emulator.lastOneTimeCode` reads it. The delivery is
/// `settings.delivery` (`email` or `sms`), or the type of the device a `DEVICE_AUTHENTICATION`
/// field chose (`settings.device` names the field). Valid five minutes. A chosen `TOTP` device
/// (the user's authenticator app) is sent nothing: `checkOneTimeCode` checks the app's code.
struct SendOneTimeCode: ConnectorCapability {
    let connectorId = "pingOneMfaConnector"
    let name = "sendOneTimeCode"
    let outcomes = ["sent"]
    static let lifetime: Double = 300

    func run(_ step: inout ConnectorStep) -> ConnectorResult {
        guard let id = step.interaction.userId, let user = step.server.users.find(id: id) else {
            return .failed(code: "noUser", message: "The flow found no user to send a code to")
        }
        let chosen = step.settings["device"]?.stringValue.flatMap { step.interaction.values[$0] }
        let type = (chosen?["type"]?.stringValue ?? step.settings["delivery"]?.stringValue ?? "email").lowercased()
        if type == "totp" {
            let deviceId = chosen?["id"]?.stringValue ?? ""
            guard user.devices.oath.contains(where: { $0.uuid == deviceId }) else {
                return .failed(code: "noDevice", message: "The user has no authenticator app device \(deviceId)")
            }
            step.interaction.pendingCode = nil
            step.interaction.authenticator = AuthenticatorCheck(deviceId: deviceId)
            return .outcome("sent")
        }
        step.interaction.authenticator = nil
        let sms = type == "sms"
        let to = (sms ? user.attributes["telephoneNumber"]?.stringValue : user.email) ?? ""
        var code = ""
        for _ in 0..<6 { code.append(Character(Unicode.Scalar(UInt8(48 + step.random.next() % 10)))) }
        let expiresAt = step.clock.now + Self.lifetime
        step.interaction.pendingCode = PendingCode(code: code, expiresAt: expiresAt)
        step.server.deliver(
            Outbox.OneTimeCode(
                code: code, delivery: sms ? "sms" : "email", to: to, username: user.username,
                journey: "davinci:\(step.interaction.flow.name)", expiresAt: expiresAt))
        return .outcome("sent")
    }
}

/// `checkOneTimeCode`: the form's `otp` field (settings `otp` names another) against the code
/// sent. A wrong or expired code is PingOne's `INVALID_VALUE` on the field; after 3 wrong ones the
/// code is spent (`failed` outcome when the flow has one, else the flow fails). For an
/// authenticator app device the code is the app's, checked by `OathVerifier` against the user's
/// OATH device (a code works once), with the same three attempts.
struct CheckOneTimeCode: ConnectorCapability {
    let connectorId = "pingOneMfaConnector"
    let name = "checkOneTimeCode"
    let outcomes = ["valid", "failed"]
    static let attempts = 3

    func run(_ step: inout ConnectorStep) -> ConnectorResult {
        let field = step.field("otp")
        if let check = step.interaction.authenticator { return authenticator(check, &step, field: field) }
        guard var pending = step.interaction.pendingCode else {
            return step.error(
                "invalidOtp", "No code was sent",
                details: [ErrorDetail(code: "INVALID_VALUE", target: field, message: "No code was sent")])
        }
        guard step.clock.now < pending.expiresAt else {
            step.interaction.pendingCode = nil
            return step.error(
                "expiredOtp", "The code has expired",
                details: [ErrorDetail(code: "EXPIRED", target: field, message: "The one-time passcode has expired")])
        }
        // A valid code stays valid for the interaction: a later step's error (a new password the
        // policy refuses) returns the client to the same form, which sends the code again.
        if ConstantTime.equal(step.value("otp") ?? "", pending.code) { return .outcome("valid") }
        pending.attempts += 1
        step.interaction.pendingCode = pending.attempts >= Self.attempts ? nil : pending
        if pending.attempts >= Self.attempts { return .outcome("failed") }
        return step.wrongPasscode(field: field, remaining: Self.attempts - pending.attempts)
    }

    /// The app's code against the user's OATH device, which keeps its last step and drift.
    private func authenticator(
        _ check: AuthenticatorCheck, _ step: inout ConnectorStep, field: String
    )
        -> ConnectorResult
    {
        guard let id = step.interaction.userId, let user = step.server.users.find(id: id),
            var device = user.devices.oath.first(where: { $0.uuid == check.deviceId })
        else { return .failed(code: "noDevice", message: "The user's authenticator app device is gone") }
        let now = Int64(step.clock.now.rounded(.down))
        if TotpDevices.verifier.verify(step.value("otp") ?? "", device: &device, now: now) {
            device.record.lastAccessDate = step.clock.now
            _ = step.server.users.update(username: user.username) { user in
                if let index = user.devices.oath.firstIndex(where: { $0.uuid == device.uuid }) {
                    user.devices.oath[index] = device
                }
            }
            step.interaction.authenticator = nil
            return .outcome("valid")
        }
        var spent = check
        spent.attempts += 1
        step.interaction.authenticator = spent.attempts >= Self.attempts ? nil : spent
        if spent.attempts >= Self.attempts { return .outcome("failed") }
        return step.wrongPasscode(field: field, remaining: Self.attempts - spent.attempts)
    }
}

extension ConnectorStep {
    /// PingOne's 400 for a wrong passcode: `INVALID_VALUE` on the field, with the attempts left.
    func wrongPasscode(field: String, remaining: Int) -> ConnectorResult {
        error(
            "invalidOtp", "Invalid one-time passcode",
            details: [
                ErrorDetail(
                    code: "INVALID_VALUE", target: field, message: "The one-time passcode is not valid",
                    innerError: [
                        "unsatisfiedRequirements": ["remainingAttempts"],
                        "remainingAttempts": .string("\(remaining)"),
                    ])
            ])
    }
}
