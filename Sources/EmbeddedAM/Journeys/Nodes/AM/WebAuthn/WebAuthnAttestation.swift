import AuthBridgeCore

/// Attestation objects (W3C Web Authentication Level 2 §6.5.4) and the statement formats AM's
/// nodes verify here: `none` (`NoneVerifier`: nothing to check) and `packed` (`PackedVerifier`
/// in ForgeRock/am-external, releases/8.0.2, auth-nodes …/webauthn/flows/formats/; §8.2).
/// Other formats (tpm, android-key, fido-u2f, …) fail as an unsupported format. X.509 reading and
/// the signature algorithms are Core's (`X509`, `PublicKey`).
enum WebAuthnAttestation {
    /// AM's `AttestationType` of a verified statement.
    enum Kind: String {
        case none = "NONE"
        case selfAttestation = "SELF"
        case basic = "BASIC"
    }

    struct Object {
        var format: String
        var statement: CBOR
        var authenticatorData: WebAuthnAuthenticatorData
        var rawAuthenticatorData: [UInt8]

        /// A few certificates at most; deeper or bigger input is not an attestation object.
        private static let limits = CBORDecoder.Limits(maxDepth: 6, maxItems: 128)

        enum DecodeError: Error { case cbor, shape, authenticatorData }

        init(_ bytes: [UInt8]) throws(DecodeError) {
            let item: CBOR
            do { item = try CBORDecoder.decode(bytes, limits: Self.limits) } catch { throw .cbor }
            guard let format = item["fmt"]?.textValue, let statement = item["attStmt"], statement.mapValue != nil,
                let raw = item["authData"]?.bytesValue
            else { throw .shape }
            do { authenticatorData = try WebAuthnAuthenticatorData(bytes: raw) } catch { throw .authenticatorData }
            self.format = format
            self.statement = statement
            rawAuthenticatorData = raw
        }
    }

    static func verify(_ object: Object, clientDataHash: [UInt8]) throws(WebAuthnCeremony.Failure) -> Kind {
        switch object.format {
        case "none": return .none
        case "packed": return try packed(object, clientDataHash: clientDataHash)
        default: throw .unsupportedAttestationFormat(object.format)
        }
    }

    /// §8.2: `alg` and `sig`, with `x5c` for full attestation, without it self attestation (the
    /// credential's own key signs, with the credential's algorithm). ECDAA is refused, as AM does.
    private static func packed(_ object: Object, clientDataHash: [UInt8]) throws(WebAuthnCeremony.Failure) -> Kind {
        let statement = object.statement
        guard let algorithm = statement["alg"]?.intValue, let signature = statement["sig"]?.bytesValue,
            statement["ecdaaKeyId"] == nil, let credential = object.authenticatorData.attestedCredential
        else { throw .badAttestationStatement }
        let signed = object.rawAuthenticatorData + clientDataHash
        if let chain = statement["x5c"] {
            return try certified(chain, algorithm: algorithm, signature: signature, signed: signed, credential)
        }
        guard algorithm == credential.publicKey.algorithm.rawValue else { throw .badAttestationStatement }
        guard WebAuthnSignature.isValid(signature, of: signed, by: credential.publicKey) else {
            throw .badAttestationStatement
        }
        return .selfAttestation
    }

    /// Full attestation (`PackedVerifier.performCertAttestation`, §8.2.1): the first certificate
    /// of `x5c` must be X.509 v3, name the credential's AAGUID when it carries
    /// id-fido-gen-ce-aaguid, and its key must have made `sig` with `alg`. With no trust anchors
    /// configured (AM's default) the type is basic and the chain is not walked.
    private static func certified(
        _ chain: CBOR, algorithm: Int, signature: [UInt8], signed: [UInt8],
        _ credential: WebAuthnAuthenticatorData.AttestedCredential
    ) throws(WebAuthnCeremony.Failure) -> Kind {
        guard let first = chain.arrayValue?.first?.bytesValue,
            let certificate = try? X509.Certificate(der: first), certificate.version == 3,
            case .success(let key) = certificate.publicKey
        else { throw .badAttestationStatement }
        if let aaguid = certificate.aaguid, aaguid != credential.aaguid { throw .badAttestationStatement }
        let matches: Bool =
            switch (key, COSEKey.Algorithm(rawValue: algorithm)) {
            case (.p256, .es256?), (.rsa, .rs256?): true
            default: false
            }
        guard matches, key.isValidSignature(signature, for: signed) else { throw .badAttestationStatement }
        return .basic
    }
}

/// A WebAuthn signature (an assertion's, or a packed self attestation's) checked with the
/// credential's COSE key: ES256 as DER-encoded ECDSA P-256 with SHA-256 (§6.5.5), RS256 as
/// RSASSA-PKCS1-v1_5 with SHA-256.
enum WebAuthnSignature {
    static func isValid(_ signature: [UInt8], of message: [UInt8], by key: COSEKey) -> Bool {
        key.publicKey?.isValidSignature(signature, for: message) ?? false
    }
}
