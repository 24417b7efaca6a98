import AuthBridgeCore
import Testing

/// Hex test vectors as bytes (whitespace ignored, so long vectors can be wrapped as published).
func decodeHex(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8).filter { $0 != 0x20 && $0 != 0x0A }
    precondition(digits.count % 2 == 0, "odd hex length")
    return stride(from: 0, to: digits.count, by: 2).map { index in
        UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
            ?? { preconditionFailure("not hex") }()
    }
}

/// A JSON file of Tests/Fixtures/crypto, empty when missing (the suites then expect entries and fail).
func cryptoFixture(_ name: String) -> JSONObject {
    let tests = #filePath.split(separator: "/").dropLast(2).joined(separator: "/")
    guard case .success(let bytes) = FileBytes.read(path: "/\(tests)/Fixtures/crypto/\(name)"),
        case .object(let object)? = try? JSONParser.parse(bytes)
    else { return [:] }
    return object
}

/// Runs every test of a Wycheproof RSA signature suite as trimmed here (groups with the key's
/// `spki`, tests as `[tcId, msg, sig, result]`): `verify` must say yes exactly for the "valid"
/// ones. Each group is also handed to `checkGroup`. Returns how many tests ran, for the caller
/// to compare with the fixture's `numberOfTests`.
func runWycheproofRSA(
    _ fixture: JSONObject, checkGroup: (JSONObject) -> Void = { _ in },
    verify: (RSA.PublicKey, _ signature: [UInt8], _ message: [UInt8]) -> Bool
) throws -> Int {
    var count = 0
    for group in (fixture["groups"]?.arrayValue ?? []).compactMap(\.objectValue) {
        checkGroup(group)
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
            #expect(
                verify(key, decodeHex(signature), decodeHex(message)) == (result == "valid"), "tcId \(id) (\(result))")
            count += 1
        }
    }
    return count
}
