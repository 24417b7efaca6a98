import AuthBridgeCore
import Testing

/// Every test of Wycheproof's ecdsa_secp256r1_sha256 suite (Tests/Fixtures/crypto/
/// wycheproof-ecdsa-p256-sha256.json, trimmed from C2SP/wycheproof): DER encodings, edge-case
/// public keys, r and s at the range limits, arithmetic special cases, point duplication. Each
/// valid signature must verify and each invalid one must be refused, by the DER reader or by
/// verification.
@Suite struct WycheproofECDSATests {
    @Test func everyVector() throws {
        let fixture = cryptoFixture("wycheproof-ecdsa-p256-sha256.json")
        let groups = (fixture["groups"]?.arrayValue ?? []).compactMap(\.objectValue)
        var count = 0
        for group in groups {
            let key = try P256.PublicKey(uncompressedPoint: decodeHex(group["key"]?.stringValue ?? ""))
            for test in group["tests"]?.arrayValue ?? [] {
                guard case .array(let fields)? = Optional(test), fields.count == 4,
                    let id = fields[0].intValue, let message = fields[1].stringValue,
                    let der = fields[2].stringValue, let valid = fields[3].boolValue
                else {
                    Issue.record("unreadable test \(test)")
                    continue
                }
                let verified =
                    (try? P256.Signature(derRepresentation: decodeHex(der)))
                    .map { key.isValidSignature($0, for: decodeHex(message)) } ?? false
                #expect(verified == valid, "tcId \(id)")
                count += 1
            }
        }
        #expect(Int64(count) == fixture["numberOfTests"]?.intValue)
    }
}
