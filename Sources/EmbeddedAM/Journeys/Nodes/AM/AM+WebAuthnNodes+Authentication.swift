import AuthBridgeCore

/// The authentication node's visit (`WebAuthnAuthenticationNode.process` in
/// ForgeRock/am-external, releases/8.0.2): the user's devices first (none: `noDevice`), unless
/// the node is usernameless, where the answer's user handle names the user; the recovery-code
/// button; the step with the devices as `allowCredentials`; then the assertion verified
/// (`AuthenticationFlow`) against the device whose credential id it names, and that device's
/// counter and last access moved.
extension AM.WebAuthnNode {
    func authenticate(_ a: Authentication, _ context: inout NodeContext) -> NodeAction {
        var user: DirectoryUser?
        if !a.usernameless {
            guard let found = context.users.find(username: context.username) else {
                logWarn("journey \(context.journeyName), node \(context.nodeId): no user \"\(context.username)\"")
                context.failureReason = JourneyFailure.Reason.unknownUser(context.username)
                return .outcome("failure")
            }
            guard !found.devices.webAuthn.isEmpty else { return noDevice(found.username, &context) }
            user = found
        }
        if a.recoveryCodes, let answers = context.answers {
            let index = options.asScript ? 3 : 2
            if answers.count > index, JourneyValues.optionIndex(answers[index].value) == 0 {
                return .outcome("recoveryCode")
            }
        }
        let hidden = hiddenValue(context)
        guard !hidden.isEmpty else {
            let allow = user?.devices.webAuthn.compactMap { Base64URL.decode($0.credentialId) } ?? []
            return step(&context, registration: nil, allow: allow)
        }
        guard let answer = WebAuthnClientAnswer(hidden) else { return unreadable(&context) }
        if let outcome = clientOutcome(answer, &context) { return outcome }
        guard case .result(let result) = answer, let response = WebAuthnAuthenticationAnswer(result) else {
            return unreadable(&context)
        }
        if a.usernameless {
            // The user handle is the registration's userId: base64url of the username.
            guard let handle = response.userHandle, let name = Base64URL.decode(handle),
                let found = context.users.find(username: String(decoding: name, as: UTF8.self))
            else {
                context.failureReason = JourneyFailure.Reason(
                    "webauthn_unknown_user_handle", "the assertion's user handle names no user")
                return .outcome("failure")
            }
            guard !found.devices.webAuthn.isEmpty else { return noDevice(found.username, &context) }
            user = found
        }
        guard let owner = user,
            let device = owner.devices.webAuthn.first(where: { $0.credentialId == response.credentialId })
        else {
            logWarn("journey \(context.journeyName), node \(context.nodeId): no registered device for that credential")
            context.failureReason = JourneyFailure.Reason(
                "webauthn_unknown_credential",
                "the assertion's credential is not a device registered to \(user?.username ?? "the user")")
            return .outcome("failure")
        }
        context.shared["webauthnDeviceUuid"] = .string(device.uuid)
        context.shared["webauthnDeviceName"] = .string(device.deviceName)
        let expected = expectation(&context, challenge: challenge(&context))
        let authData: WebAuthnAuthenticatorData
        do {
            authData = try WebAuthnCeremony.authenticate(
                clientDataJSON: response.clientDataJSON, authenticatorData: response.authenticatorData,
                signature: response.signature, key: device.key, expected)
        } catch {
            return refused(error, registering: false, &context)
        }
        // A counter of zero means the authenticator keeps none (§7.2 step 21).
        let mismatch = authData.signCount != 0 && authData.signCount <= device.signCount
        if a.usernameless { context.shared["username"] = .string(owner.username) }
        let now = context.clock.now
        _ = context.users.update(username: owner.username) { changed in
            guard let index = changed.devices.webAuthn.firstIndex(where: { $0.uuid == device.uuid }) else { return }
            changed.devices.webAuthn[index].signCount = authData.signCount
            changed.devices.webAuthn[index].record.lastAccessDate = now
        }
        guard a.detectSignCountMismatch, mismatch else { return .outcome("success") }
        context.failureReason = JourneyFailure.Reason(
            "webauthn_sign_count_mismatch",
            "the authenticator's counter (\(authData.signCount)) did not move past the device's (\(device.signCount))",
            ["check": "counter"])
        return .outcome("signCountMismatch")
    }

    private func noDevice(_ username: String, _ context: inout NodeContext) -> NodeAction {
        context.failureReason = JourneyFailure.Reason(
            "webauthn_no_device", "\(username) has no WebAuthn device registered")
        return .outcome("noDevice")
    }

}
