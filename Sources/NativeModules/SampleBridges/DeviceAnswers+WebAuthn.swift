import AuthBridgeCore
import EmulatedDevice
import NativeSDK

extension DeviceAnswers {
    /// What a passkey ceremony on a phone gave.
    public enum PasskeyResult: Equatable, Sendable {
        case registered(PasskeyAuthenticator.Registration)
        case asserted(PasskeyAuthenticator.Assertion)

        /// The `webAuthnOutcome` the SDKs write (a registration with the device name the app gave).
        public func outcome(deviceName: String? = nil) -> String {
            switch self {
            case .registered(let r): PasskeyAuthenticator.outcome(r, deviceName: deviceName)
            case .asserted(let a): PasskeyAuthenticator.outcome(a)
            }
        }
    }

    /// One WebAuthn ceremony for AM's metadata `data` (a WebAuthn MetadataCallback's `data`) on
    /// phone `id`, made if needed: a registration makes a passkey, an authentication signs with
    /// one. nil when `data` is not WebAuthn. The old SDK's bridges (`answerWebAuthn`, which first
    /// picks the phone) and the Ping SDK's RNPingFido (the app's phone) both run through here;
    /// which ceremony it is, the SDKs decide (`PingCallback.fidoType`).
    public func passkeyCeremony(
        _ data: JSONObject, phone id: String
    ) -> Result<PasskeyResult, PasskeyAuthenticator.Failure>? {
        guard let ceremony = PingCallback.fidoType(data) else { return nil }
        if phones.phone(id: id) == nil { phones.phone(of: id) }
        return phones.update(id: id) { phone in
            switch ceremony {
            case .fidoRegistration:
                PasskeyAuthenticator.createOptions(data, defaultRpId: serverHost).flatMap { options in
                    PasskeyAuthenticator.create(options, phone: &phone, origin: nil, random: random)
                        .map(PasskeyResult.registered)
                }
            default:
                PasskeyAuthenticator.getOptions(data, defaultRpId: serverHost).flatMap { options in
                    PasskeyAuthenticator.get(options, phone: &phone, origin: nil).map(PasskeyResult.asserted)
                }
            }
        }
    }

    /// A WebAuthn step in AM's MetadataCallback form whose `webAuthnOutcome` JS left as it came:
    /// the phone's passkey answers it (the ForgeRock SDKs' WebAuthn callbacks with the platform
    /// authenticator). A registration is the phone of the user the metadata names; an
    /// authentication the phone holding one of `allowCredentials` (a usernameless step lists
    /// none: the journey user's phone, or the one phone with a passkey for the relying party);
    /// when no phone holds one, the platform's NotAllowedError. The script form (`asScript: true`)
    /// stays unanswered, as with the native SDKs.
    func answerWebAuthn(_ node: inout Node) {
        func firstOutput(_ index: Int) -> JSONValue? { node.callbacks[index]["output"]?.arrayValue?.first?["value"] }
        func isWebAuthnMetadata(_ index: Int) -> Bool {
            node.callbackType(at: index) == .metadata && firstOutput(index)?["_type"] == .string("WebAuthn")
        }
        func isOutcome(_ index: Int) -> Bool {
            let outputs = node.callbacks[index]["output"]?.arrayValue ?? []
            return node.callbackType(at: index) == .hiddenValue
                && outputs.contains { $0["value"] == .string("webAuthnOutcome") }
        }
        guard let metadata = node.callbacks.indices.first(where: isWebAuthnMetadata),
            case .object(let data)? = firstOutput(metadata),
            let hidden = node.callbacks.indices.first(where: isOutcome)
        else { return }
        let current = node.callbacks[hidden]["input"]?.arrayValue?.first?["value"]?.stringValue ?? ""
        guard ["", "false", "webAuthnOutcome"].contains(current) else { return }
        let result: Result<PasskeyResult, PasskeyAuthenticator.Failure>?
        if data["_action"] == .string("webauthn_registration") {
            guard case .string(let username)? = data["userName"], !username.isEmpty else { return }
            result = passkeyCeremony(data, phone: phones.phone(of: username).id)
        } else {
            let allowed = PasskeyAuthenticator.credentialIds(data["_allowCredentials"])
            let rpId = PasskeyAuthenticator.relyingPartyId(data) ?? serverHost
            let holders = phones.all.filter { phone in
                phone.passkeys.contains { $0.rpId == rpId && (allowed.isEmpty || allowed.contains($0.id)) }
            }
            if holders.isEmpty {
                // No phone has the credential (a reset phone): the platform finds none.
                result = .failure(.notAllowed)
            } else if let phone = allowed.isEmpty ? usernamelessPhone(holders) : holders.first {
                result = passkeyCeremony(data, phone: phone.id)
            } else {
                // Without allowCredentials several phones could answer and nothing here picks one.
                return
            }
        }
        switch result {
        case .success(let value)?: node.setInput(callback: hidden, inputIndex: 0, to: .string(value.outcome()))
        case .failure(let failure)?: node.setInput(callback: hidden, inputIndex: 0, to: .string(failure.browserOutcome))
        case nil: return
        }
    }

    /// A usernameless step lists no credentials: the phone of the journey's user if it holds one
    /// for the relying party, else the one phone that does.
    private func usernamelessPhone(_ holders: [Phone]) -> Phone? {
        if let username, let phone = holders.first(where: { $0.owner.lowercased() == username.lowercased() }) {
            return phone
        }
        return holders.count == 1 ? holders.first : nil
    }
}
