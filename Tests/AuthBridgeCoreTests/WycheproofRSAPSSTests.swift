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
        let count = try runWycheproofRSA(
            fixture, checkGroup: { #expect($0["sLen"] == 32) },
            verify: { key, signature, message in key.isValidPSSSignature(signature, for: message) })
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
