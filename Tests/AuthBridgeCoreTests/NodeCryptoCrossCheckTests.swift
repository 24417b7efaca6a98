import AuthBridgeCore
import Testing

/// AuthBridgeCore against node:crypto: Tests/Fixtures/crypto/oath-vectors.json is written by
/// oath-vectors.mjs beside it from node:crypto's results, and the Node suite checks the committed
/// file is still exactly that (the arrangement is described at the top of oath-vectors.mjs).
@Suite struct NodeCryptoCrossCheck {
    static let vectors: JSONValue = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        let path = parts.joined(separator: "/") + "/Fixtures/crypto/oath-vectors.json"
        guard case .success(let bytes) = FileBytes.read(path: path), let json = try? JSONParser.parse(bytes)
        else { return .null }
        return json
    }()

    static func entries(_ key: String) -> [JSONValue] { vectors[key]?.arrayValue ?? [] }

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
        }
    }

    @Test func theFixtureIsThere() {
        #expect(Self.entries("hashes").count > 60)
        #expect(Self.entries("hmacs").count > 150)
        #expect(Self.entries("hotp").count > 100)
        #expect(Self.entries("totp").count > 100)
    }

    @Test func hashes() {
        for entry in Self.entries("hashes") {
            let message = Self.bytes(entry["message"]?.stringValue ?? "")
            let digest: [UInt8] =
                switch entry["algorithm"]?.stringValue {
                case "sha1": SHA1.hash(message)
                case "sha256": SHA256.hash(message)
                case "sha384": SHA384.hash(message)
                default: SHA512.hash(message)
                }
            #expect(
                digest.hexString == entry["digest"]?.stringValue,
                "\(entry["algorithm"] ?? .null) of \(message.count) bytes")
        }
    }

    @Test func hmacs() {
        for entry in Self.entries("hmacs") {
            let key = Self.bytes(entry["key"]?.stringValue ?? "")
            let message = Self.bytes(entry["message"]?.stringValue ?? "")
            let mac: [UInt8] =
                switch entry["algorithm"]?.stringValue {
                case "sha1": HMACSHA1.authenticate(message, key: key)
                case "sha256": HMACSHA256.authenticate(message, key: key)
                case "sha384": HMACSHA384.authenticate(message, key: key)
                default: HMACSHA512.authenticate(message, key: key)
                }
            #expect(
                mac.hexString == entry["mac"]?.stringValue, "\(entry["algorithm"] ?? .null), key of \(key.count) bytes")
        }
    }

    @Test func base32() throws {
        for entry in Self.entries("base32") {
            let bytes = Self.bytes(entry["bytes"]?.stringValue ?? "")
            let text = entry["text"]?.stringValue ?? ""
            #expect(Base32.encode(bytes) == text)
            #expect(try Base32.decode(text) == bytes)
        }
    }

    @Test func hotpAndTotp() throws {
        for entry in Self.entries("hotp") {
            let secret = try Base32.decode(entry["secret"]?.stringValue ?? "")
            let algorithm = try #require(OATH.Algorithm(rawValue: entry["algorithm"]?.stringValue ?? ""))
            let digits = try #require(OATH.Digits(rawValue: Int(entry["digits"]?.intValue ?? 0)))
            let counter = UInt64(entry["counter"]?.intValue ?? -1)
            #expect(
                OATH.hotp(secret: secret, counter: counter, digits: digits, algorithm: algorithm)
                    == entry["code"]?.stringValue)
        }
        for entry in Self.entries("totp") {
            let secret = try Base32.decode(entry["secret"]?.stringValue ?? "")
            let algorithm = try #require(OATH.Algorithm(rawValue: entry["algorithm"]?.stringValue ?? ""))
            let digits = try #require(OATH.Digits(rawValue: Int(entry["digits"]?.intValue ?? 0)))
            let code = OATH.totp(
                secret: secret, unixSeconds: entry["time"]?.intValue ?? 0, period: Int(entry["period"]?.intValue ?? 0),
                digits: digits, algorithm: algorithm)
            #expect(code == entry["code"]?.stringValue)
        }
    }
}
