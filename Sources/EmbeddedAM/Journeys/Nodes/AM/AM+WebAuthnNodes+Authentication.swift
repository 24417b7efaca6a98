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
                return .outcome("failure")
            }
            guard !found.devices.webAuthn.isEmpty else { return .outcome("noDevice") }
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
        guard let answer = WebAuthnClientAnswer(hidden) else { return unreadable(context) }
        if let outcome = clientOutcome(answer, &context) { return outcome }
        guard case .result(let result) = answer, let response = WebAuthnAuthenticationAnswer(result) else {
            return unreadable(context)
        }
        if a.usernameless {
            // The user handle is the registration's userId: base64url of the username.
            guard let handle = response.userHandle, let name = Base64URL.decode(handle),
                let found = context.users.find(username: String(decoding: name, as: UTF8.self))
            else { return .outcome("failure") }
            guard !found.devices.webAuthn.isEmpty else { return .outcome("noDevice") }
            user = found
        }
        guard let owner = user,
            let device = owner.devices.webAuthn.first(where: { $0.credentialId == response.credentialId })
        else {
            logWarn("journey \(context.journeyName), node \(context.nodeId): no registered device for that credential")
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
            logWarn("journey \(context.journeyName), node \(context.nodeId): assertion refused: \(error)")
            return .outcome("failure")
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
        return .outcome(a.detectSignCountMismatch && mismatch ? "signCountMismatch" : "success")
    }
}
