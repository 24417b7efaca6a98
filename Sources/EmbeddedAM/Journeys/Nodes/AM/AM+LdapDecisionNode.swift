import AuthBridgeCore

extension AM {
    /// AM's LDAP Decision (`ForgeRock/am-external` auth-nodes/…/LdapDecisionNode.java and its
    /// `.properties`), bound to the embedded directory instead of the configured servers (whose
    /// settings are read for type only). `username` and the transient password: `TRUE`, `FALSE`
    /// ("Login failure"), `LOCKED` ("User Locked Out.") for a locked (inactive) user whose password
    /// is right, `EXPIRED` when the user's `passwordExpired` attribute is true.
    ///
    /// What DS's password policy would report is read from the user (docs/journeys.md, "Other
    /// platform nodes"): `passwordResetRequired` true is DS's `pwdReset` (AM's "Password must be
    /// reset."), `passwordGraceLogins` a number is the grace logins left after an expired password.
    /// Either sends AM's password-change page: a TextOutput (upper-cased unless
    /// `mixedCaseForPasswordChangeMessages`), Old/New/Confirm Password, and a Confirmation with
    /// messageType 2 (AM passes `OK_CANCEL_OPTION` there), options SUBMIT/CANCEL, default 1. A
    /// refused change sends it again with AM's error message; a change made goes `TRUE` with the new
    /// password in transient state; CANCEL goes `CANCELLED` after a reset and `TRUE` in grace.
    struct LdapDecisionNode: JourneyNode {
        static let type = NodeType(name: "LdapDecisionNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            // The connection settings name a real directory; only their types are checked.
            _ = try s.strings("primaryServers", nonEmpty: false)
            _ = try s.strings("secondaryServers", nonEmpty: false)
            _ = try s.strings("accountSearchBaseDn", nonEmpty: false)
            _ = try s.bool("returnUserDn", default: true)
            return .node(
                LdapDecisionNode(
                    minimumLength: try s.int("minimumPasswordLength", default: 8, in: 0...1024),
                    mixedCase: try s.bool("mixedCaseForPasswordChangeMessages", default: false)))
        }

        /// Where the user's password state is kept (attributes a test sets with `emulator.addUser`).
        static let resetAttribute = "passwordResetRequired"
        static let expiredAttribute = "passwordExpired"
        static let graceAttribute = "passwordGraceLogins"
        /// AM's marker in shared state that the page follows a reset (`ModuleState.CHANGE_AFTER_RESET`).
        static let lastModuleState = "lastModuleState"

        var minimumLength: Int
        var mixedCase: Bool
        var outcomes: [String] { ["TRUE", "FALSE", "LOCKED", "CANCELLED", "EXPIRED"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            if let answers = context.answers { return changePassword(answers, &context) }
            let username = context.username
            let password = context.password
            guard !username.allSatisfy(\.isWhitespace), !password.allSatisfy(\.isWhitespace),
                let user = context.users.verify(username: username, password: password)
            else {
                context.failureMessage = "Login failure"
                context.failureReason =
                    context.users.contains(username: username) ? .wrongPassword(username) : .unknownUser(username)
                return .outcome("FALSE")
            }
            // The directory's own spelling of the name, as AM reads it back from the entry.
            context.shared["username"] = .string(user.username)
            if let lock = user.lock, lock.holds(at: context.clock.now) {
                context.failureMessage = "User Locked Out."
                context.failureReason = .accountLocked(user.username)
                return .outcome("LOCKED")
            }
            if let grace = user.attributes[Self.graceAttribute]?.intValue {
                guard grace > 0 else { return expired(user.username, &context) }
                context.users.update(username: user.username) { $0.attributes[Self.graceAttribute] = .int(grace - 1) }
                let message = "Your password has expired and you have \(grace) grace logins remaining."
                // The last grace login offers no way out: SUBMIT alone, as AM builds it.
                return .send(page(messageType: "0", message, options: grace == 1 ? ["SUBMIT"] : nil))
            }
            if user.attributes[Self.expiredAttribute]?.boolValue == true { return expired(user.username, &context) }
            if user.attributes[Self.resetAttribute]?.boolValue == true {
                context.shared[Self.lastModuleState] = "CHANGE_AFTER_RESET"
                return .send(page(messageType: "0", "Password must be reset."))
            }
            return .outcome("TRUE")
        }

        private func changePassword(_ answers: [CallbackAnswer], _ context: inout NodeContext) -> NodeAction {
            guard answers.count == 5, JourneyValues.optionIndex(answers[4].value) == 0 else {
                let afterReset = context.shared[Self.lastModuleState] == "CHANGE_AFTER_RESET"
                if afterReset {
                    context.failureReason = JourneyFailure.Reason(
                        "password_change_cancelled",
                        "\(context.username) cancelled the password change a reset requires")
                }
                return .outcome(afterReset ? "CANCELLED" : "TRUE")
            }
            let username = context.username
            let (old, new, confirm) = (
                JourneyValues.text(answers[1].value), JourneyValues.text(answers[2].value),
                JourneyValues.text(answers[3].value)
            )
            let refusal: String?
            if new.utf16.count < minimumLength {
                refusal = "New password is too short."
            } else if new != confirm {
                refusal = "The password and the confirm password do not match."
            } else if old == new {
                refusal = "The password must be different. Try again."
            } else if new.lowercased() == username.lowercased() {
                refusal = "Username and password must be different. Try again."
            } else if context.users.verify(username: username, password: old) == nil {
                refusal = "The password you entered is invalid."
            } else {
                refusal = nil
            }
            if let refusal { return .send(page(messageType: "2", refusal)) }
            context.users.setPassword(username: username, to: new)
            context.users.update(username: username) { user in
                for key in [Self.resetAttribute, Self.expiredAttribute, Self.graceAttribute] {
                    user.attributes[key] = nil
                }
            }
            context.transient["password"] = .string(new)
            return .outcome("TRUE")
        }

        private func expired(_ username: String, _ context: inout NodeContext) -> NodeAction {
            context.failureReason = JourneyFailure.Reason(
                "password_expired", "the password of \(username) has expired, with no grace logins left")
            return .outcome("EXPIRED")
        }

        private func page(messageType: String, _ message: String, options: [String]? = nil) -> Step {
            let options = options ?? ["SUBMIT", "CANCEL"]
            return Step(callbacks: [
                .textOutput(message: mixedCase ? message : message.uppercased(), messageType: messageType),
                .password(prompt: "Old Password"), .password(prompt: "New Password"),
                .password(prompt: "Confirm Password"),
                .confirmation(
                    prompt: "", messageType: 2, options: options, optionType: -1, defaultOption: options.count - 1,
                    preset: 0),
            ])
        }
    }
}
