import AuthBridgeCore

extension AM {
    /// AM's Identity Store Decision, on the embedded directory: `TRUE` for the right password,
    /// `FALSE` otherwise, `LOCKED` for a locked (inactive) account, `EXPIRED` for a user whose
    /// `passwordExpired` attribute is true. A user whose `passwordResetRequired` is true is asked
    /// for a new password first (TextOutput + Old/New/Confirm Password + Submit/Cancel): `CANCELLED`
    /// on cancel, else the password is changed (at least `minimumPasswordLength`) and `TRUE`.
    struct IdentityStoreDecisionNode: JourneyNode {
        static let type = NodeType(name: "IdentityStoreDecisionNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                IdentityStoreDecisionNode(minimumLength: try s.int("minimumPasswordLength", default: 8, in: 0...1024)))
        }

        var minimumLength: Int
        var outcomes: [String] { ["TRUE", "FALSE", "LOCKED", "CANCELLED", "EXPIRED"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            let username = context.username
            if let answers = context.answers { return changePassword(answers, &context) }
            guard let user = context.users.verify(username: username, password: context.password) else {
                return .outcome("FALSE")
            }
            if let lock = user.lock, lock.holds(at: context.clock.now) { return .outcome("LOCKED") }
            if user.attributes["passwordExpired"]?.boolValue == true { return .outcome("EXPIRED") }
            if user.attributes["passwordResetRequired"]?.boolValue == true {
                return .send(step(message: "Your password has expired. Please change it."))
            }
            return .outcome("TRUE")
        }

        private func changePassword(_ answers: [CallbackAnswer], _ context: inout NodeContext) -> NodeAction {
            if JourneyValues.optionIndex(answers[4].value) == 1 { return .outcome("CANCELLED") }
            let (old, new, confirm) = (
                JourneyValues.text(answers[1].value), JourneyValues.text(answers[2].value),
                JourneyValues.text(answers[3].value)
            )
            guard context.users.verify(username: context.username, password: old) != nil else {
                return .send(step(message: "The old password is wrong."))
            }
            guard new == confirm else { return .send(step(message: "The new passwords do not match.")) }
            guard new.count >= minimumLength else {
                return .send(step(message: "The new password must have at least \(minimumLength) characters."))
            }
            context.users.setPassword(username: context.username, to: new)
            context.users.update(username: context.username) { $0.attributes["passwordResetRequired"] = nil }
            context.transient["password"] = .string(new)
            return .outcome("TRUE")
        }

        private func step(message: String) -> Step {
            Step(callbacks: [
                .textOutput(message: message, messageType: "0"), .password(prompt: "Old Password"),
                .password(prompt: "New Password"),
                .password(prompt: "Confirm Password"),
                .confirmation(
                    prompt: "", messageType: 0, options: ["Submit", "Cancel"], optionType: -1, defaultOption: 0,
                    preset: 0),
            ])
        }
    }
}
