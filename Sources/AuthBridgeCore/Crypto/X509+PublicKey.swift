/// SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) for the two key kinds the bridge verifies with:
/// EC P-256 (RFC 5480 §2: id-ecPublicKey with the named curve prime256v1, an uncompressed point)
/// and RSA (RFC 3279 §2.3.1: rsaEncryption, NULL parameters, PKCS #1 RSAPublicKey).
extension X509 {
    public enum OID {
        public static let ecPublicKey = DER.ObjectIdentifier("1.2.840.10045.2.1")
        public static let prime256v1 = DER.ObjectIdentifier("1.2.840.10045.3.1.7")
        public static let rsaEncryption = DER.ObjectIdentifier("1.2.840.113549.1.1.1")
        public static let ecdsaWithSHA256 = DER.ObjectIdentifier("1.2.840.10045.4.3.2")
        public static let sha256WithRSAEncryption = DER.ObjectIdentifier("1.2.840.113549.1.1.11")
        public static let basicConstraints = DER.ObjectIdentifier("2.5.29.19")
        /// id-fido-gen-ce-aaguid (WebAuthn §8.2.1).
        public static let fidoAAGUID = DER.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4")
        public static let commonName = DER.ObjectIdentifier("2.5.4.3")
        public static let country = DER.ObjectIdentifier("2.5.4.6")
        public static let organization = DER.ObjectIdentifier("2.5.4.10")
        public static let organizationalUnit = DER.ObjectIdentifier("2.5.4.11")
    }
}

extension PublicKey {
    /// From a DER SubjectPublicKeyInfo (a certificate's, or WebAuthn's `getPublicKey()`).
    public init(subjectPublicKeyInfo der: [UInt8]) throws(X509.Error) {
        var reader = DER.Reader(der)
        self = try Self.read(&reader)
        do { try reader.finish() } catch { throw .der(error) }
    }

    /// Reads one SubjectPublicKeyInfo SEQUENCE.
    static func read(_ reader: inout DER.Reader) throws(X509.Error) -> PublicKey {
        let (algorithm, parameters, keyBits) = try X509.reading { () throws(DER.Error) in
            try reader.nested { (spki: inout DER.Reader) throws(DER.Error) in
                let (algorithm, parameters) = try spki.nested { (identifier: inout DER.Reader) throws(DER.Error) in
                    (try identifier.objectIdentifier(), try identifier.read())
                }
                return (algorithm, parameters, try spki.bitString())
            }
        }
        switch algorithm {
        case X509.OID.ecPublicKey:
            var parametersReader = DER.Reader(parameters.encoded)
            let curve = try X509.reading { () throws(DER.Error) in try parametersReader.objectIdentifier() }
            guard curve == X509.OID.prime256v1 else { throw .unsupportedCurve(curve) }
            do { return .p256(try P256.PublicKey(uncompressedPoint: Array(keyBits))) } catch {
                throw .invalidP256Key(error)
            }
        case X509.OID.rsaEncryption:
            guard parameters.tag == DER.Tag.null, parameters.content.isEmpty else { throw .invalidKeyParameters }
            var keyReader = DER.Reader(keyBits)
            let (n, e) = try X509.reading { () throws(DER.Error) in
                let parts = try keyReader.nested { (key: inout DER.Reader) throws(DER.Error) in
                    (try key.unsignedInteger(), try key.unsignedInteger())
                }
                try keyReader.finish()
                return parts
            }
            do { return .rsa(try RSA.PublicKey(modulus: Array(n), exponent: Array(e))) } catch {
                throw .invalidRSAKey(error)
            }
        default:
            throw .unsupportedKeyAlgorithm(algorithm)
        }
    }

    /// The DER SubjectPublicKeyInfo.
    public var subjectPublicKeyInfo: [UInt8] {
        let sequence = DER.Tag.sequence
        switch self {
        case .p256(let key):
            let identifier = DER.encode(
                tag: sequence,
                DER.encode(tag: DER.Tag.objectIdentifier, X509.OID.ecPublicKey.encoded)
                    + DER.encode(tag: DER.Tag.objectIdentifier, X509.OID.prime256v1.encoded))
            return DER.encode(
                tag: sequence, identifier + DER.encode(tag: DER.Tag.bitString, [0] + key.uncompressedPoint))
        case .rsa(let key):
            let identifier = DER.encode(
                tag: sequence,
                DER.encode(tag: DER.Tag.objectIdentifier, X509.OID.rsaEncryption.encoded) + [DER.Tag.null, 0])
            let rsaKey = DER.encode(
                tag: sequence,
                DER.encodeUnsignedInteger(key.modulusBytes) + DER.encodeUnsignedInteger(key.exponentBytes))
            return DER.encode(tag: sequence, identifier + DER.encode(tag: DER.Tag.bitString, [0] + rsaKey))
        }
    }

    /// Whether `signature` signs `message` with SHA-256 in the encoding X.509 and WebAuthn use:
    /// ECDSA as DER (COSE ES256, −7), RSA as RSASSA-PKCS1-v1_5 (COSE RS256, −257).
    public func isValidSignature(_ signature: [UInt8], for message: some Sequence<UInt8>) -> Bool {
        switch self {
        case .p256(let key):
            guard let signature = try? P256.Signature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: message)
        case .rsa(let key):
            return key.isValidSignature(signature, for: message)
        }
    }

    /// The same, for an X.509 signature algorithm: it must be the key's (ecdsa-with-SHA256 or
    /// sha256WithRSAEncryption), anything else answers false.
    public func isValidSignature(
        _ signature: [UInt8], for message: some Sequence<UInt8>, algorithm: DER.ObjectIdentifier
    ) -> Bool {
        switch self {
        case .p256: algorithm == X509.OID.ecdsaWithSHA256 && isValidSignature(signature, for: message)
        case .rsa: algorithm == X509.OID.sha256WithRSAEncryption && isValidSignature(signature, for: message)
        }
    }
}
