import AuthBridgeCore
import Testing

@Suite struct Base32Vectors {
    /// RFC 4648 §10.
    @Test func rfc4648() throws {
        let vectors = [
            ("", ""), ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="), ("foob", "MZXW6YQ="),
            ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(try Base32.decode(encoded) == Array(plain.utf8))
        }
    }

    /// What authenticator apps accept: no padding, lowercase.
    @Test func unpaddedAndLowercase() throws {
        #expect(Base32.encode(Array("foobar".utf8), padding: false) == "MZXW6YTBOI")
        #expect(try Base32.decode("MZXW6YTBOI") == Array("foobar".utf8))
        #expect(try Base32.decode("mzxw6ytboi") == Array("foobar".utf8))
        #expect(try Base32.decode("mzXW6ytBoi======") == Array("foobar".utf8))
    }

    @Test func refusals() {
        #expect(throws: Base32.DecodingError.invalidCharacter(offset: 2)) { try Base32.decode("MZ1W6YTB") }
        #expect(throws: Base32.DecodingError.invalidCharacter(offset: 4)) { try Base32.decode("MZXW 6YTB") }
        #expect(throws: Base32.DecodingError.invalidPadding(offset: 2)) { try Base32.decode("MY=") }
        #expect(throws: Base32.DecodingError.invalidPadding(offset: 2)) { try Base32.decode("MY=A====") }
        #expect(throws: Base32.DecodingError.invalidPadding(offset: 8)) { try Base32.decode("MZXW6YTB========") }
        #expect(throws: Base32.DecodingError.invalidPadding(offset: 0)) { try Base32.decode("========") }
        #expect(throws: Base32.DecodingError.invalidLength(symbols: 1)) { try Base32.decode("M") }
        #expect(throws: Base32.DecodingError.invalidLength(symbols: 3)) { try Base32.decode("MZX") }
        #expect(throws: Base32.DecodingError.invalidLength(symbols: 6)) { try Base32.decode("MZXW6Y") }
        #expect(throws: Base32.DecodingError.nonZeroTrailingBits) { try Base32.decode("MZ") }
        #expect(throws: Base32.DecodingError.invalidCharacter(offset: 0)) { try Base32.decode("é") }
    }

    @Test func roundTripsEveryLength() throws {
        for count in 0..<42 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(try Base32.decode(Base32.encode(bytes)) == bytes)
            #expect(try Base32.decode(Base32.encode(bytes, padding: false)) == bytes)
        }
    }
}

@Suite struct OATHVectors {
    /// RFC 4226 Appendix D: HOTP of the ASCII secret "12345678901234567890", counters 0–9.
    @Test func rfc4226() {
        let secret = Array("12345678901234567890".utf8)
        let expected = [
            "755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489",
        ]
        for (counter, code) in expected.enumerated() {
            #expect(OATH.hotp(secret: secret, counter: UInt64(counter), digits: .six) == code)
        }
    }

    /// RFC 6238 Appendix B: 8-digit TOTP, 30-second steps, each algorithm with its own seed.
    @Test(arguments: [
        (Int64(59), "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ])
    func rfc6238(time: Int64, sha1: String, sha256: String, sha512: String) {
        let seed = Array("1234567890".utf8)
        let seed20 = Array((0..<2).flatMap { _ in seed })
        let seed32 = Array((seed20 + seed20).prefix(32))
        let seed64 = Array((0..<7).flatMap { _ in seed }.prefix(64))
        func code(_ secret: [UInt8], _ algorithm: OATH.Algorithm) -> String {
            OATH.totp(secret: secret, unixSeconds: time, period: 30, digits: .eight, algorithm: algorithm)
        }
        #expect(code(seed20, .sha1) == sha1)
        #expect(code(seed32, .sha256) == sha256)
        #expect(code(seed64, .sha512) == sha512)
    }

    @Test func timeStepsRoundDown() {
        #expect(OATH.timeStep(unixSeconds: 59, period: 30) == 1)
        #expect(OATH.timeStep(unixSeconds: 60, period: 30) == 2)
        #expect(OATH.timeStep(unixSeconds: -1, period: 30) == -1)
        #expect(OATH.timeStep(unixSeconds: 10, period: 0) == 10)
    }

    /// RFC 4226 §5.4's example digest gives 0x50ef7f19 at its dynamic offset 10; a fixed offset
    /// beyond the digest's last four bytes falls back to the dynamic one.
    @Test func truncationOffset() {
        let secret = Array("12345678901234567890".utf8)
        let dynamic = OATH.hotp(secret: secret, counter: 0, digits: .six)
        #expect(OATH.hotp(secret: secret, counter: 0, digits: .six, truncationOffset: 99) == dynamic)
        #expect(OATH.hotp(secret: secret, counter: 0, digits: .six, truncationOffset: -1) == dynamic)
        let mac = HMACSHA1.authenticate([0, 0, 0, 0, 0, 0, 0, 0], key: secret)
        let atZero =
            (UInt32(mac[0] & 0x7f) << 24 | UInt32(mac[1]) << 16 | UInt32(mac[2]) << 8 | UInt32(mac[3])) % 1_000_000
        let padded = String(atZero)
        #expect(
            OATH.hotp(secret: secret, counter: 0, digits: .six, truncationOffset: 0)
                == String(repeating: "0", count: 6 - padded.count) + padded)
    }
}
