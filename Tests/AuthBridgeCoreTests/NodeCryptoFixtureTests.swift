import AuthBridgeCore
import Testing

/// The Swift crypto against node:crypto (OpenSSL): Tests/Fixtures/crypto/node-crypto.json holds
/// keys, signatures, tokens and certificates node made (Tests/Fixtures/crypto/make-fixtures.mjs,
/// run once), and protocol/crypto/crypto.test.mjs re-checks the file with node:crypto under
/// `make test`. Here every valid entry must verify and every invalid one must not, keys and
/// certificates must read as OpenSSL read them, and the `deterministic` entries (RFC 6979
/// signatures the generator computed and node:crypto verified) must be what Swift signs, byte for
/// byte. Nothing is written: the two implementations meet only through the checked-in file.
@Suite struct NodeCryptoFixtureTests {
    static let fixtures = cryptoFixture("node-crypto.json")

    static func entries(_ name: String) -> [JSONObject] {
        (fixtures[name]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    static func hex(_ entry: JSONObject, _ key: String) -> [UInt8] { decodeHex(entry[key]?.stringValue ?? "") }

    static func base64(_ entry: JSONObject, _ key: String) -> [UInt8] {
        Base64URL.decode(entry[key]?.stringValue ?? "") ?? []
    }

    @Test func p256Signatures() throws {
        let entries = Self.entries("p256")
        #expect(entries.count >= 20)
        for entry in entries {
            let key = try P256.PublicKey(x: Self.base64(entry, "x"), y: Self.base64(entry, "y"))
            let spki = Self.hex(entry, "spki")
            guard case .p256(let fromSPKI) = try PublicKey(subjectPublicKeyInfo: spki) else {
                Issue.record("not a P-256 key")
                continue
            }
            #expect(fromSPKI.uncompressedPoint == key.uncompressedPoint)
            #expect(PublicKey.p256(key).subjectPublicKeyInfo == spki)
            let message = Self.hex(entry, "message")
            let der = try P256.Signature(derRepresentation: Self.hex(entry, "der"))
            let raw = try P256.Signature(rawRepresentation: Self.hex(entry, "raw"))
            let valid = entry["valid"] == true
            #expect(key.isValidSignature(der, for: message) == valid)
            #expect(key.isValidSignature(raw, for: message) == valid)
            #expect(der.derRepresentation == Self.hex(entry, "der"))
        }
    }

    @Test func deterministicSignaturesMatchNode() throws {
        let entries = Self.entries("deterministic")
        #expect(entries.count >= 5)
        for entry in entries {
            let key = try P256.PrivateKey(rawRepresentation: Self.hex(entry, "privateKey"))
            #expect(key.publicKey.uncompressedPoint == Self.hex(entry, "publicKey"))
            #expect(key.signature(for: Self.hex(entry, "message")).rawRepresentation == Self.hex(entry, "raw"))
        }
    }

    @Test func rsaSignatures() throws {
        let entries = Self.entries("rsa")
        #expect(entries.count >= 20)
        for entry in entries {
            guard case .rsa(let key) = try PublicKey(subjectPublicKeyInfo: Self.hex(entry, "spki")) else {
                Issue.record("not an RSA key")
                continue
            }
            #expect(Int64(key.modulusBits) == entry["bits"]?.intValue)
            #expect(key.modulusBytes == Self.base64(entry, "n"))
            #expect(key.exponentBytes == Self.base64(entry, "e"))
            #expect(PublicKey.rsa(key).subjectPublicKeyInfo == Self.hex(entry, "spki"))
            let valid = key.isValidSignature(Self.hex(entry, "signature"), for: Self.hex(entry, "message"))
            #expect(valid == (entry["valid"] == true), "\(entry["comment"]?.stringValue ?? "")")
        }
    }

    @Test func jwsTokens() throws {
        let entries = Self.entries("jws")
        #expect(entries.compactMap { $0["alg"]?.stringValue } == ["ES256", "RS256", "RS512"])
        for entry in entries {
            let jwk = try JWK(json: entry["jwk"]?.objectValue ?? [:])
            let algorithm = try #require(JWS.Algorithm(rawValue: entry["alg"]?.stringValue ?? ""))
            let parsed = try JWS.parse(entry["token"]?.stringValue ?? "")
            #expect(parsed.header["kid"] == .string(jwk.keyID ?? ""))
            let verified = try parsed.verify(allowed: [algorithm], key: JWS.VerificationKey(jwk.key))
            #expect(try JSONParser.parse(verified.payload)["sub"] == "demo")
            // The other algorithms its key could verify are not the signer's: the hash is bound.
            for other in JWS.VerificationKey(jwk.key).algorithms.subtracting([algorithm]) {
                let relabelled = Self.relabel(entry["token"]?.stringValue ?? "", alg: other)
                #expect(throws: JWS.Error.badSignature) {
                    try JWS.verify(relabelled, allowed: [other], key: JWS.VerificationKey(jwk.key))
                }
            }
        }
    }

    /// `token` with its header's `alg` replaced, the signature kept.
    static func relabel(_ token: String, alg: JWS.Algorithm) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"\#(alg.rawValue)"}"#.utf8))
        return header + token.drop { $0 != "." }
    }

    /// ssh-keygen's authorized_keys lines hold the keys node exported, and the tokens node signed
    /// with their private halves verify with them (AM's Amster JWT node).
    @Test func openSSHKeys() throws {
        let entries = Self.entries("openssh")
        #expect(entries.count == 2)
        for entry in entries {
            let line = entry["line"]?.stringValue ?? ""
            let key = try PublicKey(openSSH: line)
            #expect(key == (try JWK(json: entry["jwk"]?.objectValue ?? [:])).key)
            #expect(line.hasPrefix(key.openSSH + " "))
            let algorithm = try #require(JWS.Algorithm(rawValue: entry["alg"]?.stringValue ?? ""))
            let verified = try JWS.verify(
                entry["token"]?.stringValue ?? "", allowed: [.es256, .rs256], key: JWS.VerificationKey(key))
            #expect(verified.algorithm == algorithm)
        }
    }

    static let shortNames = [
        X509.OID.country: "C", X509.OID.organization: "O", X509.OID.organizationalUnit: "OU", X509.OID.commonName: "CN",
    ]

    static func describe(_ name: X509.Name) -> [JSONValue] {
        name.attributes.map { .string("\(shortNames[$0.type] ?? "?")=\($0.value)") }
    }

    @Test func certificatesReadAsOpenSSLReadThem() throws {
        let entries = Self.entries("certificates")
        #expect(entries.count == 4)
        var keys: [String: PublicKey] = [:]
        for entry in entries {
            keys[entry["label"]?.stringValue ?? ""] = try PublicKey(subjectPublicKeyInfo: Self.hex(entry, "spki"))
        }
        for entry in entries {
            let label = entry["label"]?.stringValue ?? ""
            let certificate = try X509.Certificate(der: Self.hex(entry, "der"))
            #expect(certificate.version == 3)
            #expect(.array(Self.describe(certificate.subject)) == entry["subject"], "\(label)")
            #expect(.array(Self.describe(certificate.issuer)) == entry["issuer"], "\(label)")
            #expect(certificate.notBefore == entry["notBefore"]?.intValue)
            #expect(certificate.notAfter == entry["notAfter"]?.intValue)
            #expect(certificate.basicConstraints?.isCertificateAuthority == (entry["ca"] == true))
            #expect(try certificate.publicKey.get().subjectPublicKeyInfo == Self.hex(entry, "spki"))
            #expect(certificate.aaguid == entry["aaguid"]?.stringValue.map(decodeHex))
            let issuer = try #require(keys[entry["signedBy"]?.stringValue ?? ""])
            #expect(certificate.isSigned(by: issuer), "\(label)")
            #expect(!certificate.isSigned(by: try certificate.publicKey.get()) || label.hasSuffix("oot"))
        }
    }
}
