import AuthBridgeCore

/// The phone's platform authenticator and the SDK around it: it reads the options AM's WebAuthn
/// MetadataCallback carries, makes or uses a passkey as a user who approves with a biometric
/// would (user present and verified), and writes the answer the ForgeRock SDKs put in the
/// `webAuthnOutcome` hidden value (`fr-webauthn/index.ts` in ForgeRock/forgerock-javascript-sdk:
/// `clientDataJSON::attestationObject::credentialId` and
/// `clientDataJSON::authenticatorData::signature::credentialId::userHandle`, byte arrays as
/// comma-separated signed bytes). Attestation is `none`; assertions are ES256 (DER) with a
/// counter that moves on each time.
public enum PasskeyAuthenticator {
    /// Why the ceremony fails, as the DOMException the SDK reports (`ERROR::<name>:<message>`).
    public enum Failure: Error, Equatable, Sendable {
        /// No usable credential, or the user declined.
        case notAllowed
        /// A credential of this phone is in `excludeCredentials`.
        case invalidState
        /// The options offer no algorithm this authenticator has (ES256 only).
        case notSupported
        /// The metadata lacks what the ceremony needs (the SDK's DataError).
        case data(String)

        /// The hidden value the SDK writes for it.
        public var outcome: String {
            switch self {
            case .notAllowed: "ERROR::NotAllowedError:The operation either timed out or was not allowed."
            case .invalidState:
                "ERROR::InvalidStateError:The user attempted to register an authenticator that contains one of the credentials already registered with the relying party."
            case .notSupported: "ERROR::NotSupportedError:The operation is not supported."
            case .data(let what): "ERROR::DataError:\(what)"
            }
        }
    }

    /// An all-zero AAGUID: what `none` attestation carries.
    static let aaguid = [UInt8](repeating: 0, count: 16)

    /// `navigator.credentials.create` with the registration metadata; the new passkey is added
    /// to `phone`. `origin` defaults to `https://<rpId>`; `defaultRpId` is used when the node
    /// names none (a browser would use its page's host).
    public static func register(
        _ data: JSONObject, phone: inout Phone, origin: String?, defaultRpId: String, random: RandomSource
    ) -> Result<String, Failure> {
        guard let challenge = challenge(data) else { return .failure(.data("no challenge")) }
        let rpId = relyingPartyId(data, registration: true) ?? defaultRpId
        guard case .string(let userId)? = data["userId"] else { return .failure(.data("no userId")) }
        let algorithms = data["_pubKeyCredParams"]?.arrayValue?.compactMap { $0.objectValue?["alg"]?.intValue }
        if let algorithms, !algorithms.contains(-7) { return .failure(.notSupported) }
        let handle = Base64URL.encode(Array(userId.utf8))
        let excluded = credentialIds(data["_excludeCredentials"])
        if phone.passkeys.contains(where: { $0.rpId == rpId && excluded.contains($0.id) }) {
            return .failure(.invalidState)
        }
        let key = P256.PrivateKey(generatingWith: random)
        let credentialId = random.bytes(32)
        let passkey = Passkey(
            id: Base64URL.encode(credentialId), rpId: rpId, userHandle: handle,
            userName: data["userName"]?.stringValue ?? "", privateKey: key.rawRepresentation, signCount: 0)
        // A new passkey for the same user and relying party replaces the old one, as on a phone.
        phone.passkeys.removeAll { $0.rpId == rpId && $0.userHandle == handle }
        phone.passkeys.append(passkey)
        let clientData = clientDataJSON("webauthn.create", challenge, origin ?? "https://\(rpId)")
        let publicKey = COSEKey.ec2P256(x: key.publicKey.xBytes, y: key.publicKey.yBytes)
        let authData = WebAuthnAuthenticatorData(
            rpIdHash: SHA256.hash(Array(rpId.utf8)), flags: [.userPresent, .userVerified], signCount: 0,
            attestedCredential: .init(aaguid: aaguid, credentialId: credentialId, publicKey: publicKey))
        let attestation = CBOR.map([
            .init(.text("fmt"), .text("none")), .init(.text("attStmt"), .map([])),
            .init(.text("authData"), .bytes(authData.bytes)),
        ])
        return .success("\(clientData)::\(signed(attestation.encoded))::\(passkey.id)")
    }

    /// `navigator.credentials.get` with the authentication metadata: the phone's passkey for the
    /// relying party among `allowCredentials` (any of its passkeys there when the list is empty).
    public static func authenticate(
        _ data: JSONObject, phone: inout Phone, origin: String?, defaultRpId: String
    ) -> Result<String, Failure> {
        guard let challenge = challenge(data) else { return .failure(.data("no challenge")) }
        let rpId = relyingPartyId(data, registration: false) ?? defaultRpId
        let allowed = credentialIds(data["_allowCredentials"])
        guard
            let index = phone.passkeys.lastIndex(where: {
                $0.rpId == rpId && (allowed.isEmpty || allowed.contains($0.id))
            }), let key = phone.passkeys[index].key
        else { return .failure(.notAllowed) }
        phone.passkeys[index].signCount &+= 1
        let passkey = phone.passkeys[index]
        let clientData = clientDataJSON("webauthn.get", challenge, origin ?? "https://\(rpId)")
        let authData = WebAuthnAuthenticatorData(
            rpIdHash: SHA256.hash(Array(rpId.utf8)), flags: [.userPresent, .userVerified],
            signCount: passkey.signCount
        ).bytes
        let signature = key.signature(for: authData + SHA256.hash(Array(clientData.utf8))).derRepresentation
        // The SDK decodes the user handle's bytes as text: the relying party's userId again.
        let handle = Base64URL.decode(passkey.userHandle).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return .success("\(clientData)::\(signed(authData))::\(signed(signature))::\(passkey.id)::\(handle)")
    }

    // MARK: reading AM's metadata

    /// Standard base64, as the SDKs read it with `atob`.
    private static func challenge(_ data: JSONObject) -> [UInt8]? {
        guard case .string(let text)? = data["challenge"] else { return nil }
        return Base64.decode(text)
    }

    /// `_relyingPartyId`, or the old `id: "…",` / `rpId: "…",` string; nil when none is named.
    private static func relyingPartyId(_ data: JSONObject, registration: Bool) -> String? {
        if case .string(let id)? = data["_relyingPartyId"], !id.isEmpty { return id }
        guard case .string(let text)? = data["relyingPartyId"], !text.isEmpty else { return nil }
        let parts = text.split(separator: "\"")
        return parts.count >= 2 ? String(parts[1]) : text
    }

    /// `_excludeCredentials` / `_allowCredentials`: ids as arrays of signed bytes, as base64url.
    private static func credentialIds(_ value: JSONValue?) -> Set<String> {
        Set(
            (value?.arrayValue ?? []).compactMap { entry in
                entry.objectValue?["id"]?.arrayValue.map { bytes in
                    Base64URL.encode(bytes.map { UInt8(bitPattern: Int8(truncatingIfNeeded: $0.intValue ?? 0)) })
                }
            })
    }

    private static func clientDataJSON(_ type: String, _ challenge: [UInt8], _ origin: String) -> String {
        JSONWriter.compact([
            "type": .string(type), "challenge": .string(Base64URL.encode(challenge)), "origin": .string(origin),
            "crossOrigin": false,
        ])
    }

    /// JavaScript's `new Int8Array(bytes).toString()`.
    private static func signed(_ bytes: [UInt8]) -> String {
        bytes.map { String(Int8(bitPattern: $0)) }.joined(separator: ",")
    }
}
