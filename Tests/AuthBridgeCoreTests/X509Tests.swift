import AuthBridgeCore
import Testing

/// Hostile and malformed DER against the certificate and key readers: every truncation, trailing
/// bytes, absurd lengths and deep nesting are refused with an error, never a crash; tampered
/// certificates still parse but no longer verify. (Well-formed certificates and keys are checked
/// against OpenSSL in NodeCryptoFixtureTests.)
@Suite struct X509Tests {
    static let leaf: [UInt8] = {
        let certificates = NodeCryptoFixtureTests.entries("certificates")
        let entry = certificates.first { $0["label"] == "leaf" } ?? [:]
        return NodeCryptoFixtureTests.hex(entry, "der")
    }()

    static let root: [UInt8] = {
        let certificates = NodeCryptoFixtureTests.entries("certificates")
        let entry = certificates.first { $0["label"] == "root" } ?? [:]
        return NodeCryptoFixtureTests.hex(entry, "der")
    }()

    @Test func theAttestationLeafCarriesWhatWebAuthnChecks() throws {
        let leaf = try X509.Certificate(der: Self.leaf)
        #expect(leaf.version == 3)
        #expect(leaf.subject.organizationalUnit == ["Authenticator Attestation"])
        #expect(leaf.subject.country == ["US"])
        #expect(leaf.subject.organization == ["AuthBridge Test"])
        #expect(leaf.subject.commonName == ["AuthBridge Test Authenticator"])
        #expect(leaf.basicConstraints?.isCertificateAuthority == false)
        #expect(leaf.basicConstraints?.pathLength == nil)
        #expect(leaf.aaguid?.count == 16)
        #expect(leaf.extensions.first { $0.id == X509.OID.fidoAAGUID }?.critical == false)
        #expect(leaf.extensions.first { $0.id == X509.OID.basicConstraints }?.critical == true)
        #expect(leaf.signatureAlgorithm == X509.OID.ecdsaWithSHA256)
        #expect(leaf.publicKeyAlgorithm == X509.OID.ecPublicKey)
        #expect(leaf.isValid(at: leaf.notBefore) && leaf.isValid(at: leaf.notAfter))
        #expect(!leaf.isValid(at: leaf.notBefore - 1) && !leaf.isValid(at: leaf.notAfter + 1))
        // notAfter is in 2055: a GeneralizedTime (2055-06-30T12:00:00Z).
        #expect(leaf.notAfter == 2_697_969_600)
    }

    @Test func everyTruncationIsRefused() {
        for length in 0..<Self.leaf.count {
            #expect(throws: X509.Error.self) { try X509.Certificate(der: Array(Self.leaf.prefix(length))) }
        }
    }

    @Test func trailingBytesAndBadLengthsAreRefused() {
        #expect(throws: X509.Error.der(.trailingBytes(offset: 0))) { try X509.Certificate(der: Self.leaf + [0]) }
        var longer = Self.leaf
        longer[3] &+= 1  // the outer length (0x30 0x82 hi lo) claims one byte more than there is
        #expect(throws: X509.Error.der(.truncated(offset: 0))) { try X509.Certificate(der: longer) }
        // Lengths of 2^32 − 1 and with five length bytes; an indefinite length.
        for header: [UInt8] in [[0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], [0x30, 0x85, 1, 0, 0, 0, 0], [0x30, 0x80]] {
            #expect(throws: X509.Error.self) { try X509.Certificate(der: header + Self.leaf) }
            #expect(throws: X509.Error.self) { try PublicKey(subjectPublicKeyInfo: header + [0, 0]) }
        }
    }

    @Test func deepNestingIsRefusedWithoutRecursion() {
        // 100 000 nested SEQUENCE headers, each claiming what is left.
        var bytes: [UInt8] = []
        for depth in 0..<100_000 {
            let remaining = (100_000 - depth - 1) * 6
            bytes += [
                0x30, 0x84, UInt8(remaining >> 24), UInt8(remaining >> 16 & 0xFF), UInt8(remaining >> 8 & 0xFF),
                UInt8(remaining & 0xFF),
            ]
        }
        #expect(throws: X509.Error.self) { try X509.Certificate(der: bytes) }
        #expect(throws: X509.Error.self) { try PublicKey(subjectPublicKeyInfo: bytes) }
    }

    @Test func tamperedCertificatesNoLongerVerify() throws {
        let rootKey = try X509.Certificate(der: Self.root).publicKey.get()
        #expect(try X509.Certificate(der: Self.leaf).isSigned(by: rootKey))
        var signature = Self.leaf
        signature[signature.count - 5] ^= 0x01
        #expect(!(try X509.Certificate(der: signature)).isSigned(by: rootKey))
        let ou = Array("Authenticator Attestation".utf8)
        let index = try #require((0..<Self.leaf.count - ou.count).first { Array(Self.leaf[$0..<$0 + ou.count]) == ou })
        var subject = Self.leaf
        subject[index] = UInt8(ascii: "a")
        let tampered = try X509.Certificate(der: subject)
        #expect(tampered.subject.organizationalUnit == ["authenticator Attestation"])
        #expect(!tampered.isSigned(by: rootKey))
        // The WebAuthn form: the signature in the key's natural encoding, no X.509 algorithm.
        let leaf = try X509.Certificate(der: Self.leaf)
        #expect(rootKey.isValidSignature(leaf.signature, for: leaf.tbsCertificate))
        #expect(!rootKey.isValidSignature(leaf.signature, for: leaf.tbsCertificate.dropLast()))
        #expect(
            !rootKey.isValidSignature(
                leaf.signature, for: leaf.tbsCertificate, algorithm: X509.OID.sha256WithRSAEncryption))
        // A key of the wrong kind for the algorithm.
        let rsa = try #require(
            NodeCryptoFixtureTests.entries("rsa").first.map {
                try PublicKey(subjectPublicKeyInfo: NodeCryptoFixtureTests.hex($0, "spki"))
            })
        #expect(!(try X509.Certificate(der: Self.leaf)).isSigned(by: rsa))
    }

    @Test func subjectPublicKeyInfoErrors() throws {
        let leafKey = try X509.Certificate(der: Self.leaf).publicKey.get().subjectPublicKeyInfo
        // prime256v1 → secp384r1 (1.3.132.0.34) in the parameters: an unsupported curve.
        let p256OID: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        let start = try #require((0..<leafKey.count - 10).first { Array(leafKey[$0..<$0 + 10]) == p256OID })
        let p384 =
            Array(leafKey[..<start]) + [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22] + Array(leafKey[(start + 10)...])
        var fixed = p384
        fixed[1] -= 3
        fixed[3] -= 3
        #expect(throws: X509.Error.unsupportedCurve(DER.ObjectIdentifier("1.3.132.0.34"))) {
            try PublicKey(subjectPublicKeyInfo: fixed)
        }
        var offCurve = leafKey
        offCurve[offCurve.count - 1] ^= 1
        #expect(throws: X509.Error.invalidP256Key(.notOnCurve)) { try PublicKey(subjectPublicKeyInfo: offCurve) }
        #expect(throws: X509.Error.der(.trailingBytes(offset: 0))) {
            try PublicKey(subjectPublicKeyInfo: leafKey + [5, 0])
        }
    }

    @Test func derPrimitives() throws {
        #expect(DER.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4").description == "1.3.6.1.4.1.45724.1.1.4")
        #expect(DER.ObjectIdentifier("1.2.840.10045.2.1").encoded == [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])
        var reader = DER.Reader([0x01, 0x01, 0x01])
        #expect(throws: DER.Error.invalidBoolean(offset: 0)) { try reader.boolean() }
        reader = DER.Reader([0x06, 0x02, 0x80, 0x01])
        #expect(throws: DER.Error.invalidObjectIdentifier(offset: 0)) { try reader.objectIdentifier() }
        reader = DER.Reader([0x03, 0x02, 0x01, 0xFF])
        #expect(throws: DER.Error.invalidBitString(offset: 0)) { try reader.bitString() }
        reader = DER.Reader([0x1F, 0x01, 0x00])
        #expect(throws: DER.Error.unsupportedTag(offset: 0)) { try reader.read() }
        reader = DER.Reader([0x04, 0x81, 0x05, 1, 2, 3, 4, 5])
        #expect(throws: DER.Error.invalidLength(offset: 0)) { try reader.read() }
        let long = DER.encode(tag: DER.Tag.octetString, [UInt8](repeating: 7, count: 300))
        reader = DER.Reader(long)
        #expect(try reader.read(tag: DER.Tag.octetString).content.count == 300)
        #expect(DER.encodeUnsignedInteger([0, 0, 0x80]) == [0x02, 0x02, 0x00, 0x80])
        #expect(DER.encodeUnsignedInteger([]) == [0x02, 0x01, 0x00])
    }

    @Test func civilTimeRoundTrips() {
        for seconds: Int64 in [0, 951_782_400, 2_524_607_999, 2_697_969_600, -86_400, 4_102_444_800] {
            let civil = CivilTime(unixMillis: seconds * 1000)
            #expect(
                CivilTime.unixSeconds(
                    year: civil.year, month: civil.month, day: civil.day, hour: civil.hour, minute: civil.minute,
                    second: civil.second) == seconds)
        }
    }
}
