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
        let groups = (fixture["groups"]?.arrayValue ?? []).compactMap(\.objectValue)
        var count = 0
        for group in groups {
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
                let verified = key.isValidSignature(decodeHex(signature), for: decodeHex(message), hash: hash)
                #expect(verified == (result == "valid"), "tcId \(id) (\(result))")
                count += 1
            }
        }
        #expect(Int64(count) == fixture["numberOfTests"]?.intValue)
    }
}
