import AuthBridgeCore

/// The registration node's visit (`WebAuthnRegistrationNode.process` in ForgeRock/am-external,
/// releases/8.0.2): the step for a known user under the device limit, then the answer verified
/// (`RegisterFlow`) and the credential saved with the recovery codes AM makes for it.
extension AM.WebAuthnNode {
    /// AM's default name for a device the client did not name (the node's bundle).
    static let defaultDeviceName = "New Security Key"

    func register(_ r: Registration, _ context: inout NodeContext) -> NodeAction {
        let username = context.username
        let hidden = hiddenValue(context)
        guard !hidden.isEmpty else {
            guard let user = username.isEmpty ? nil : context.users.find(username: username) else {
                logWarn("journey \(context.journeyName), node \(context.nodeId): no user \"\(username)\"")
                context.failureReason = JourneyFailure.Reason.unknownUser(username)
                return .outcome("failure")
            }
            if r.maxDevices > 0, user.devices.webAuthn.count >= r.maxDevices {
                context.failureReason = JourneyFailure.Reason(
                    "webauthn_device_limit",
                    "\(user.username) already has \(r.maxDevices) WebAuthn devices, the node's limit",
                    ["maxDevices": .int(Int64(r.maxDevices))])
                return .outcome("exceedDeviceLimit")
            }
            var selection: JSONObject = ["userVerification": .string(options.userVerification)]
            if r.attachment != "unspecified" { selection["authenticatorAttachment"] = .string(r.attachment) }
            selection["residentKey"] = .string(r.residentKey)
            selection["requireResidentKey"] = .bool(r.residentKey == "required")
            let excluded =
                r.excludeCredentials ? user.devices.webAuthn.compactMap { Base64URL.decode($0.credentialId) } : []
            let registration = Callback.WebAuthnRegistrationOptions(
                relyingPartyName: r.relyingPartyName, userName: user.username,
                userId: Base64URL.encode(Array(user.username.utf8)), displayName: user.username,
                attestationPreference: r.attestation, authenticatorSelection: selection,
                excludeCredentials: excluded)
            return step(&context, registration: registration, allow: [])
        }
        guard let answer = WebAuthnClientAnswer(hidden) else { return unreadable(&context) }
        if let outcome = clientOutcome(answer, &context) { return outcome }
        guard case .result(let result) = answer, let response = WebAuthnRegistrationAnswer(result) else {
            return unreadable(&context)
        }
        let expected = expectation(&context, challenge: challenge(&context))
        let verified: (WebAuthnAuthenticatorData, WebAuthnAttestation.Kind)
        do {
            verified = try WebAuthnCeremony.register(
                clientDataJSON: response.clientDataJSON, attestationObject: response.attestationObject, expected)
        } catch {
            return refused(error, registering: true, &context)
        }
        guard let credential = verified.0.attestedCredential else {
            return refused(.attestedData, registering: true, &context)
        }
        guard context.users.find(username: username) != nil else {
            context.failureReason = JourneyFailure.Reason.unknownUser(username)
            return .outcome("failure")
        }
        let name = response.deviceName ?? Self.defaultDeviceName
        let codes = r.recoveryCodes ? RecoveryCodes.make(context.random) : []
        let device = WebAuthnDeviceProfile(
            record: DeviceRecord(uuid: context.random.uuid(), deviceName: name, createdDate: context.clock.now),
            credentialId: Base64URL.encode(credential.credentialId), key: credential.publicKey,
            signCount: verified.0.signCount, aaguid: credential.aaguid.hexString,
            recoveryCodeDigests: codes.map(RecoveryCodes.digest))
        _ = context.users.update(username: username) { $0.devices.webAuthn.append(device) }
        if !codes.isEmpty {
            // What RecoveryCodeDisplayNode shows (AbstractWebAuthnNode.setRecoveryCodesOnDevice).
            context.transient[AM.RecoveryCodeDisplayNode.codesKey] = .array(codes.map { .string($0) })
            context.transient[AM.RecoveryCodeDisplayNode.deviceNameKey] = .string(name)
        }
        context.shared["webauthnDeviceUuid"] = .string(device.uuid)
        context.shared["webauthnDeviceName"] = .string(name)
        return .outcome("success")
    }
}
