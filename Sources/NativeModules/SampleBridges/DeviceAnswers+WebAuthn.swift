import AuthBridgeCore
import EmulatedDevice
import NativeSDK

extension DeviceAnswers {
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
        let result: Result<String, PasskeyAuthenticator.Failure>?
        if data["_action"] == .string("webauthn_registration") {
            guard case .string(let username)? = data["userName"], !username.isEmpty else { return }
            result = phones.updatePhone(of: username) { phone in
                PasskeyAuthenticator.register(
                    data, phone: &phone, origin: nil, defaultRpId: serverHost, random: random)
            }
        } else {
            let allowed = Set((data["_allowCredentials"]?.arrayValue ?? []).compactMap(Self.credentialId))
            var rpId = serverHost
            if case .string(let named)? = data["_relyingPartyId"], !named.isEmpty { rpId = named }
            let holders = phones.all.filter { phone in
                phone.passkeys.contains { $0.rpId == rpId && (allowed.isEmpty || allowed.contains($0.id)) }
            }
            if holders.isEmpty {
                // No phone has the credential (a reset phone): the platform finds none.
                result = .failure(.notAllowed)
            } else if let phone = allowed.isEmpty ? usernamelessPhone(holders) : holders.first {
                result = phones.update(id: phone.id) { phone in
                    PasskeyAuthenticator.authenticate(data, phone: &phone, origin: nil, defaultRpId: serverHost)
                }
            } else {
                // Without allowCredentials several phones could answer and nothing here picks one.
                return
            }
        }
        switch result {
        case .success(let value)?: node.setInput(callback: hidden, inputIndex: 0, to: .string(value))
        case .failure(let failure)?: node.setInput(callback: hidden, inputIndex: 0, to: .string(failure.outcome))
        case nil: return
        }
    }

    /// A `_allowCredentials` entry's id (signed bytes) as base64url.
    private static func credentialId(_ entry: JSONValue) -> String? {
        guard let bytes = entry["id"]?.arrayValue else { return nil }
        return Base64URL.encode(bytes.map { UInt8(bitPattern: Int8(truncatingIfNeeded: $0.intValue ?? 0)) })
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
