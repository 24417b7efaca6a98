import AuthBridgeCore
import EmbeddedAM
import EmulatedDevice

/// What a test does with a phone's passkeys (`emulator.passkeys`, `emulator.answerWebAuthn`).
extension World {
    /// The phone's passkeys as a test may see them (no private key).
    public func passkeys(phoneId: String) -> [Passkey] { phones.phone(id: phoneId)?.passkeys ?? [] }

    /// The phone answers a WebAuthn step: `data` is the step's MetadataCallback `data` (AM's
    /// `asScript: false` form); the result is what the ForgeRock SDKs write into
    /// `webAuthnOutcome`, or the `ERROR::…` text of the DOMException the ceremony ends in
    /// (`cancel`: the user dismisses the prompt, NotAllowedError). `origin` defaults to
    /// `https://<rpId>`; a step naming no relying party is for the server's host.
    public func answerWebAuthn(
        phoneId: String, data: JSONObject, origin: String?, cancel: Bool
    ) throws(EmulatorError)
        -> String
    {
        guard data["_type"] == .string("WebAuthn") else {
            throw EmulatorError(param: "data", reason: "not a WebAuthn MetadataCallback's data (no _type WebAuthn)")
        }
        if cancel { return PasskeyAuthenticator.Failure.cancelled.browserOutcome }
        let baseURL = embedded.config.baseURL
        let host = String((baseURL.split(separator: "://", maxSplits: 1).last ?? "").prefix { $0 != "/" && $0 != ":" })
        let result = phones.update(id: phoneId) { phone in
            data["_action"] == .string("webauthn_registration")
                ? PasskeyAuthenticator.register(data, phone: &phone, origin: origin, defaultRpId: host, random: random)
                : PasskeyAuthenticator.authenticate(data, phone: &phone, origin: origin, defaultRpId: host)
        }
        switch result {
        case .success(let value)?: return value
        case .failure(let failure)?: return failure.browserOutcome
        case nil: throw EmulatorError(param: "phone", reason: "no phone \(phoneId)")
        }
    }
}
