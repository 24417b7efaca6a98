import AuthBridgeCore
import Testing

/// RSASSA-PKCS1-v1_5 signing (RFC 8017 §8.2.1): RFC 7515 Appendix A.2's key, rebuilt from its
/// published primes, signs the published signing input to the published signature; generated
/// keys sign what the verifier accepts.
@Suite struct RSAPrivateKeyTests {
    /// RFC 7515 §A.2.1's `p` and `q` (RFC 7517 §A.2's "2011-04-29" key).
    static let p = Base64URL.decode(
        "4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc"
    )!
    static let q = Base64URL.decode(
        "uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc"
    )!

    @Test func rfc7515AppendixA2Signature() throws {
        let key = try RSA.PrivateKey(p: Self.p, q: Self.q)
        #expect(key.publicKey.modulusBytes == RSATests.modulus)
        #expect(key.signature(for: RSATests.signingInput, hash: .sha256) == RSATests.signature)
    }

    @Test func aJWSSignedWithTheKeyVerifies() throws {
        let key = try RSA.PrivateKey(p: Self.p, q: Self.q)
        for (hash, algorithm) in [(RSA.Hash.sha256, JWS.Algorithm.rs256), (.sha512, .rs512)] {
            let compact = JWS.sign(payload: Array("{\"sub\":\"ada\"}".utf8), key: .rsa(key, hash))
            let verified = try JWS.verify(compact, allowed: [algorithm], key: .rsa(key.publicKey))
            #expect(verified.payload == Array("{\"sub\":\"ada\"}".utf8))
        }
    }

    @Test func generatedKeysAre2048BitsAndSign() throws {
        let random = SeededRandomSource(seed: 7)
        let key = RSA.PrivateKey.generate(random: random)
        #expect(key.publicKey.modulusBits == 2048)
        #expect(key.publicKey.exponentBytes == [1, 0, 1])
        let signature = key.signature(for: Array("challenge".utf8), hash: .sha512)
        #expect(key.publicKey.isValidSignature(signature, for: Array("challenge".utf8), hash: .sha512))
        // The same seed makes the same key (a seeded daemon repeats its tokens).
        #expect(RSA.PrivateKey.generate(random: SeededRandomSource(seed: 7)) == key)
        #expect(try RSA.PrivateKey(p: key.p, q: key.q) == key)
    }

    @Test func aPairWithoutAnInverseIsRefused() {
        // 65537 divides p − 1 for p = 2·65537 + 1 = 131075 (not prime, but the check comes first).
        #expect(throws: RSA.PrivateKey.KeyError.notAKeyPair) {
            try RSA.PrivateKey(p: [0x02, 0x00, 0x03], q: Self.q)
        }
    }
}
