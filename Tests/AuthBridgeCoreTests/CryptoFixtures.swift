import AuthBridgeCore

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
