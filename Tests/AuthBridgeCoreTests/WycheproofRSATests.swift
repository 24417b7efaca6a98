import AuthBridgeCore
import Testing

/// Every test of Wycheproof's rsa_signature_2048_sha256 and rsa_signature_2048_sha512 suites
/// (Tests/Fixtures/crypto/wycheproof-rsa-2048-sha256.json and wycheproof-rsa-2048-sha512.json,
/// trimmed from C2SP/wycheproof; SHA-512 is JWS RS512): keys with e = 65537 and e = 3 read from
/// their SubjectPublicKeyInfo, and the signatures, most of them encodings a lax PKCS #1 v1.5
/// parser would accept. The one "acceptable" vector of each (DigestInfo without its NULL) is
/// refused here: the whole encoded message is compared.
@Suite struct WycheproofRSATests {
    @Test(arguments: [
        ("wycheproof-rsa-2048-sha256.json", RSA.Hash.sha256), ("wycheproof-rsa-2048-sha512.json", .sha512),
    ])
    func everyVector(file: String, hash: RSA.Hash) throws {
        let fixture = cryptoFixture(file)
        let count = try runWycheproofRSA(fixture) { key, signature, message in
            key.isValidSignature(signature, for: message, hash: hash)
        }
        #expect(Int64(count) == fixture["numberOfTests"]?.intValue)
    }
}
