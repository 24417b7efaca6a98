import AuthBridgeCore
import Testing

/// RSASSA-PSS (PS256): every test of Wycheproof's rsa_pss_2048_sha256_mgf1_32 suite
/// (Tests/Fixtures/crypto/wycheproof-rsa-pss-2048-sha256-mgf1-32.json, trimmed from
/// C2SP/wycheproof): valid signatures over SHA-256 with MGF1-SHA-256 and a 32-byte salt, and
/// modified ones (a flipped bit, a wrong trailer, a salt of another length, a wrong primitive).
/// Signing is checked against this verifier here and against node:crypto in
/// protocol/http/signing.test.mjs (the daemon's PS256 id tokens).
@Suite struct WycheproofRSAPSSTests {
    @Test func everyVector() throws {
        let fixture = cryptoFixture("wycheproof-rsa-pss-2048-sha256-mgf1-32.json")
        let groups = (fixture["groups"]?.arrayValue ?? []).compactMap(\.objectValue)
        var count = 0
        for group in groups {
            #expect(group["sLen"] == 32)
            guard case .rsa(let key) = try PublicKey(subjectPublicKeyInfo: decodeHex(group["spki"]?.stringValue ?? ""))
            else {
                Issue.record("not an RSA key")
                continue
            }
            for test in group["tests"]?.arrayValue ?? [] {
                guard case .array(let fields)? = Optional(test), fields.count == 4,
                    let id = fields[0].intValue, let message = fields[1].stringValue,
                    let signature = fields[2].stringValue, let result = fields[3].stringValue
                else {
                    Issue.record("unreadable test \(test)")
                    continue
                }
                let verified = key.isValidPSSSignature(decodeHex(signature), for: decodeHex(message))
                #expect(verified == (result == "valid"), "tcId \(id) (\(result))")
                count += 1
            }
        }
        #expect(Int64(count) == fixture["numberOfTests"]?.intValue)
    }

    @Test func aSignatureVerifiesAndItsSaltIsTheCallersOrDerived() throws {
        let key = try RSA.PrivateKey(p: RSAPrivateKeyTests.p, q: RSAPrivateKeyTests.q)
        let message = Array("eyJhbGciOiJQUzI1NiJ9.e30".utf8)
        let salted = key.pssSignature(for: message, salt: [UInt8](repeating: 7, count: 32))
        #expect(key.publicKey.isValidPSSSignature(salted, for: message))
        #expect(!key.publicKey.isValidPSSSignature(salted, for: message + [0]))
        #expect(key.pssSignature(for: message, salt: [UInt8](repeating: 8, count: 32)) != salted)
        // Derived: the same every time, so a seeded daemon's tokens repeat.
        #expect(key.pssSignature(for: message) == key.pssSignature(for: message))
        #expect(key.publicKey.isValidPSSSignature(key.pssSignature(for: message), for: message))
        // PKCS #1 v1.5 and PSS are not interchangeable.
        #expect(!key.publicKey.isValidSignature(salted, for: message, hash: .sha256))
        let compact = JWS.sign(payload: Array("{}".utf8), key: .rsaPSS(key))
        #expect(throws: Never.self) { try JWS.verify(compact, allowed: [.ps256], key: .rsa(key.publicKey)) }
        #expect(throws: JWS.Error.algorithmNotAllowed("PS256")) {
            try JWS.verify(compact, allowed: [.rs256], key: .rsa(key.publicKey))
        }
    }
}
