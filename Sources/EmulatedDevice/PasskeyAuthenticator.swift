import AuthBridgeCore

/// The phone's platform authenticator: it makes or uses a passkey as a user who approves with a
/// biometric would (user present and verified), after asking the phone's next prompt answer
/// (`Phone.promptAnswers`: a test queues `cancel`, `timeout` or `unsupported` with
/// `emulator.setBindingPrompts`; nothing queued approves). Attestation is `none`; assertions are
/// ES256 (DER) with a counter that moves on each time. Who asked (AM's WebAuthn metadata through
/// an SDK's journey callback, or a standalone FIDO client's options) reads its request into
/// `CreateOptions` / `GetOptions` and writes the raw result in its own format
/// (`PasskeyAuthenticator+AMMetadata.swift` for AM's `webAuthnOutcome`).
public enum PasskeyAuthenticator {
    /// Why the ceremony fails, as a DOMException names it.
    public enum Failure: Error, Equatable, Sendable {
        /// No usable credential for the relying party.
        case notAllowed
        /// The user dismissed the biometric prompt.
        case cancelled
        /// The prompt timed out.
        case timedOut
        /// A credential of this phone is in `excludeCredentials`.
        case invalidState
        /// The options offer no algorithm this authenticator has (ES256 only), or the phone has
        /// no biometric or passcode set up.
        case notSupported
        /// The request lacks what the ceremony needs (the SDK's DataError).
        case data(String)
    }

    /// `navigator.credentials.create`'s inputs, decoded.
    public struct CreateOptions: Sendable {
        public var challenge: [UInt8]
        public var rpId: String
        public var userHandle: [UInt8]
        public var userName: String
        /// COSE algorithms offered; nil when the request names none (ES256 is then used).
        public var algorithms: [Int]?
        /// Credential ids (base64url) the authenticator must not register again.
        public var excluded: Set<String>

        public init(
            challenge: [UInt8], rpId: String, userHandle: [UInt8], userName: String, algorithms: [Int]?,
            excluded: Set<String>
        ) {
            self.challenge = challenge
            self.rpId = rpId
            self.userHandle = userHandle
            self.userName = userName
            self.algorithms = algorithms
            self.excluded = excluded
        }
    }

    /// `navigator.credentials.get`'s inputs, decoded.
    public struct GetOptions: Sendable {
        public var challenge: [UInt8]
        public var rpId: String
        /// Credential ids (base64url) the relying party accepts; empty for a discoverable login.
        public var allowed: Set<String>

        public init(challenge: [UInt8], rpId: String, allowed: Set<String>) {
            self.challenge = challenge
            self.rpId = rpId
            self.allowed = allowed
        }
    }

    /// A new credential: what `AuthenticatorAttestationResponse` carries.
    public struct Registration: Equatable, Sendable {
        public var clientDataJSON: String
        public var attestationObject: [UInt8]
        public var authenticatorData: [UInt8]
        public var credentialId: [UInt8]
        /// The credential's public key as a COSE key.
        public var publicKey: [UInt8]
    }

    /// A signed assertion: what `AuthenticatorAssertionResponse` carries.
    public struct Assertion: Equatable, Sendable {
        public var clientDataJSON: String
        public var authenticatorData: [UInt8]
        public var signature: [UInt8]
        public var credentialId: [UInt8]
        public var userHandle: [UInt8]
    }

    /// An all-zero AAGUID: what `none` attestation carries.
    static let aaguid = [UInt8](repeating: 0, count: 16)

    /// Makes a passkey on `phone` (it replaces one for the same user and relying party, as on a
    /// phone). `origin` defaults to `https://<rpId>`.
    public static func create(
        _ o: CreateOptions, phone: inout Phone, origin: String?, random: RandomSource
    ) -> Result<Registration, Failure> {
        if let algorithms = o.algorithms, !algorithms.contains(-7) { return .failure(.notSupported) }
        let handle = Base64URL.encode(o.userHandle)
        if phone.passkeys.contains(where: { $0.rpId == o.rpId && o.excluded.contains($0.id) }) {
            return .failure(.invalidState)
        }
        if let refused = promptRefusal(&phone) { return .failure(refused) }
        let key = P256.PrivateKey(generatingWith: random)
        let credentialId = random.bytes(32)
        let passkey = Passkey(
            id: Base64URL.encode(credentialId), rpId: o.rpId, userHandle: handle, userName: o.userName,
            privateKey: key.rawRepresentation, signCount: 0)
        phone.passkeys.removeAll { $0.rpId == o.rpId && $0.userHandle == handle }
        phone.passkeys.append(passkey)
        let clientData = clientDataJSON("webauthn.create", o.challenge, origin ?? "https://\(o.rpId)")
        let publicKey = COSEKey.ec2P256(x: key.publicKey.xBytes, y: key.publicKey.yBytes)
        let authData = WebAuthnAuthenticatorData(
            rpIdHash: SHA256.hash(Array(o.rpId.utf8)), flags: [.userPresent, .userVerified], signCount: 0,
            attestedCredential: .init(aaguid: aaguid, credentialId: credentialId, publicKey: publicKey)
        ).bytes
        let attestation = CBOR.map([
            .init(.text("fmt"), .text("none")), .init(.text("attStmt"), .map([])),
            .init(.text("authData"), .bytes(authData)),
        ])
        return .success(
            Registration(
                clientDataJSON: clientData, attestationObject: attestation.encoded, authenticatorData: authData,
                credentialId: credentialId, publicKey: publicKey.cbor.encoded))
    }

    /// Signs with the phone's passkey for the relying party among `allowed` (any of its passkeys
    /// there when the list is empty); `.notAllowed` when it holds none.
    public static func get(_ o: GetOptions, phone: inout Phone, origin: String?) -> Result<Assertion, Failure> {
        guard
            let index = phone.passkeys.lastIndex(where: {
                $0.rpId == o.rpId && (o.allowed.isEmpty || o.allowed.contains($0.id))
            }), let key = phone.passkeys[index].key
        else { return .failure(.notAllowed) }
        if let refused = promptRefusal(&phone) { return .failure(refused) }
        phone.passkeys[index].signCount &+= 1
        let passkey = phone.passkeys[index]
        let clientData = clientDataJSON("webauthn.get", o.challenge, origin ?? "https://\(o.rpId)")
        let authData = WebAuthnAuthenticatorData(
            rpIdHash: SHA256.hash(Array(o.rpId.utf8)), flags: [.userPresent, .userVerified],
            signCount: passkey.signCount
        ).bytes
        let signature = key.signature(for: authData + SHA256.hash(Array(clientData.utf8))).derRepresentation
        return .success(
            Assertion(
                clientDataJSON: clientData, authenticatorData: authData, signature: signature,
                credentialId: Base64URL.decode(passkey.id) ?? [],
                userHandle: Base64URL.decode(passkey.userHandle) ?? []))
    }

    /// The biometric prompt before the key is used: the phone's next queued answer.
    private static func promptRefusal(_ phone: inout Phone) -> Failure? {
        switch phone.takePromptAnswer() {
        case .approve: nil
        case .cancel: .cancelled
        case .timeout: .timedOut
        case .unsupported: .notSupported
        }
    }

    private static func clientDataJSON(_ type: String, _ challenge: [UInt8], _ origin: String) -> String {
        JSONWriter.compact([
            "type": .string(type), "challenge": .string(Base64URL.encode(challenge)), "origin": .string(origin),
            "crossOrigin": false,
        ])
    }
}
