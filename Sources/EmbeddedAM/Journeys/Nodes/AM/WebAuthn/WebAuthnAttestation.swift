import AuthBridgeCore

/// Attestation objects (W3C Web Authentication Level 2 §6.5.4) and the statement formats AM's
/// nodes verify here: `none` (`NoneVerifier`: nothing to check) and `packed` (`PackedVerifier`
/// in ForgeRock/am-external, releases/8.0.2, auth-nodes …/webauthn/flows/formats/; §8.2).
/// Other formats (tpm, android-key, fido-u2f, …) fail as an unsupported format.
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
        if statement["x5c"] != nil {
            // Full attestation needs the certificate's key (X.509 reading, not in this tree yet).
            throw .unsupportedAttestationFormat("packed (x5c)")
        }
        guard algorithm == credential.publicKey.algorithm.rawValue else { throw .badAttestationStatement }
        guard WebAuthnSignature.isValid(signature, of: signed, by: credential.publicKey) else {
            throw .badAttestationStatement
        }
        return .selfAttestation
    }
}

/// A WebAuthn signature (an assertion's, or a packed self attestation's) checked with the
/// credential's COSE key: ES256 as DER-encoded ECDSA P-256 with SHA-256 (§6.5.5), RS256 as
/// RSASSA-PKCS1-v1_5 with SHA-256.
enum WebAuthnSignature {
    static func isValid(_ signature: [UInt8], of message: [UInt8], by key: COSEKey) -> Bool {
        switch key {
        case .ec2P256(let x, let y):
            guard let publicKey = try? P256.PublicKey(x: x, y: y),
                let parsed = try? P256.Signature(derRepresentation: signature)
            else { return false }
            return publicKey.isValidSignature(parsed, for: message)
        case .rsa:
            // RSA verification lands with the crypto branch's RSA; until then no RS256 key verifies.
            return false
        }
    }
}
