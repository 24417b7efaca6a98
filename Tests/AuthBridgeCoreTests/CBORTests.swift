import AuthBridgeCore
import Testing

private func cborHex(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8.filter { $0 != 32 })
    return stride(from: 0, to: digits.count, by: 2).map {
        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
}

/// RFC 8949 Appendix A: encodings and the items they decode to. Those in `canonical` also
/// encode back to the same bytes (definite lengths, shortest heads).
@Suite struct CBORVectors {
    static let canonical: [(String, CBOR)] = [
        ("00", .unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)),
        ("1818", .unsigned(24)), ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)),
        ("1a000f4240", .unsigned(1_000_000)), ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
        ("1bffffffffffffffff", .unsigned(18_446_744_073_709_551_615)),
        ("3bffffffffffffffff", .negative(18_446_744_073_709_551_615)),
        ("20", .int(-1)), ("29", .int(-10)), ("3863", .int(-100)), ("3903e7", .int(-1000)),
        ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null), ("f7", .undefined), ("f0", .simple(16)),
        ("f8ff", .simple(255)), ("c11a514b67b0", .tagged(1, .unsigned(1_363_896_240))),
        ("d74401020304", .tagged(23, .bytes([1, 2, 3, 4]))), ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])),
        ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")), ("62225c", .text("\"\\")),
        ("62c3bc", .text("\u{00fc}")), ("63e6b0b4", .text("\u{6c34}")), ("64f0908591", .text("\u{10151}")),
        ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        (
            "8301820203820405",
            .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])
        ),
        ("a0", .map([])), ("a201020304", .map([.init(.unsigned(1), .unsigned(2)), .init(.unsigned(3), .unsigned(4))])),
        (
            "a26161016162820203",
            .map([.init(.text("a"), .unsigned(1)), .init(.text("b"), .array([.unsigned(2), .unsigned(3)]))])
        ),
        ("826161a161626163", .array([.text("a"), .map([.init(.text("b"), .text("c"))])])),
        ("fb3ff199999999999a", .float(1.1)), ("fb7e37e43c8800759c", .float(1.0e300)),
        ("fbc010666666666666", .float(-4.1)),
    ]

    @Test func decodesAndEncodesTheAppendixA() throws {
        for (encoding, item) in Self.canonical {
            #expect(try CBORDecoder.decode(cborHex(encoding)) == item, "\(encoding)")
            #expect(item.encoded == cborHex(encoding), "\(encoding)")
        }
        let twentyFive = (1...25).map { CBOR.unsigned(UInt64($0)) }
        let long = cborHex("98190102030405060708090a0b0c0d0e0f101112131415161718181819")
        #expect(try CBORDecoder.decode(long) == .array(twentyFive))
        #expect(CBOR.array(twentyFive).encoded == long)
    }

    /// Half, single and double precision floats, decoded.
    @Test func decodesFloats() throws {
        let floats: [(String, Double)] = [
            ("f90000", 0.0), ("f93c00", 1.0), ("f93e00", 1.5), ("f97bff", 65504.0), ("fa47c35000", 100000.0),
            ("fa7f7fffff", 3.4028234663852886e+38), ("f90001", 5.960464477539063e-8), ("f90400", 0.00006103515625),
            ("f9c400", -4.0), ("f97c00", .infinity), ("fa7f800000", .infinity), ("f9fc00", -.infinity),
        ]
        for (encoding, value) in floats {
            #expect(try CBORDecoder.decode(cborHex(encoding)) == .float(value), "\(encoding)")
        }
        #expect(try CBORDecoder.decode(cborHex("f98000")) == .float(-0.0))
        guard case .float(let nan) = try CBORDecoder.decode(cborHex("f97e00")) else {
            Issue.record("not a float")
            return
        }
        #expect(nan.isNaN)
    }

    /// Indefinite-length strings, arrays and maps (Appendix A's streaming examples).
    @Test func decodesIndefiniteLengths() throws {
        #expect(try CBORDecoder.decode(cborHex("5f42010243030405ff")) == .bytes([1, 2, 3, 4, 5]))
        #expect(try CBORDecoder.decode(cborHex("7f657374726561646d696e67ff")) == .text("streaming"))
        #expect(try CBORDecoder.decode(cborHex("9fff")) == .array([]))
        let nested: CBOR = .array([
            .unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)]),
        ])
        #expect(try CBORDecoder.decode(cborHex("9f018202039f0405ffff")) == nested)
        #expect(try CBORDecoder.decode(cborHex("83018202039f0405ff")) == nested)
        #expect(
            try CBORDecoder.decode(cborHex("bf61610161629f0203ffff"))
                == .map([.init(.text("a"), .unsigned(1)), .init(.text("b"), .array([.unsigned(2), .unsigned(3)]))]))
        #expect(
            try CBORDecoder.decode(cborHex("bf6346756ef563416d7421ff"))
                == .map([.init(.text("Fun"), .bool(true)), .init(.text("Amt"), .int(-2))]))
    }

    /// Hostile input: refused with the offset, never a trap or an allocation of the claimed size.
    @Test func refusesBombsAndMalformedInput() {
        func error(_ bytes: [UInt8], _ limits: CBORDecoder.Limits = .init()) -> CBORDecoder.Error? {
            do {
                _ = try CBORDecoder.decode(bytes, limits: limits)
                return nil
            } catch { return error }
        }
        // A byte string claiming 2⁶⁴−1 bytes, an array claiming 2³² items, a map claiming 2⁶⁴−1 entries.
        #expect(error(cborHex("5bffffffffffffffff00")) == .lengthBeyondInput(offset: 0))
        #expect(error(cborHex("9affffffff00")) == .lengthBeyondInput(offset: 0))
        #expect(error(cborHex("bbffffffffffffffff")) == .lengthBeyondInput(offset: 0))
        #expect(error(cborHex("7a00010000")) == .lengthBeyondInput(offset: 0))
        // 10,000 nested arrays; 17 is already too deep.
        #expect(error([UInt8](repeating: 0x81, count: 10_000) + [0]) == .tooDeep(offset: 17))
        #expect(error([UInt8](repeating: 0x9F, count: 10_000)) == .tooDeep(offset: 17))
        // More items than allowed, each one byte.
        #expect(error([0x99, 0x13, 0x88] + [UInt8](repeating: 0, count: 5000)) == .tooManyItems(offset: 4098))
        #expect(error([0x83, 0, 0, 0], .init(maxItems: 3)) == .tooManyItems(offset: 3))
        #expect(error([]) == .truncated(offset: 0))
        #expect(error(cborHex("1a0000")) == .truncated(offset: 0))
        #expect(error(cborHex("811a00")) == .truncated(offset: 1))
        #expect(error(cborHex("1c")) == .malformedHead(offset: 0))
        #expect(error(cborHex("1f")) == .malformedHead(offset: 0))
        #expect(error(cborHex("ff")) == .unexpectedBreak(offset: 0))
        #expect(error(cborHex("8201ff")) == .unexpectedBreak(offset: 2))
        #expect(error(cborHex("62c328")) == .invalidUTF8(offset: 0))
        #expect(error(cborHex("5f6161ff")) == .badChunk(offset: 1))
        #expect(error(cborHex("f818")) == .badSimpleValue(offset: 0))
        #expect(error(cborHex("a201020103")) == .duplicateMapKey(offset: 3))
        #expect(error(cborHex("0000")) == .trailingBytes(offset: 1))
    }

    /// One item from the middle of a buffer, the reader left just after it.
    @Test func readsOneItemAndStops() throws {
        var decoder = CBORDecoder(cborHex("a1616101 ff 00")[...])
        #expect(try decoder.decodeItem() == .map([.init(.text("a"), .unsigned(1))]))
        #expect(decoder.position == 4)
    }
}

/// COSE keys: RFC 9052 Appendix C.7.1's P-256 key (with the ES256 algorithm the WebAuthn
/// specification's §6.5.1.1 example adds) and an RS256 key.
@Suite struct COSEKeyVectors {
    static let x = cborHex("65eda5a12577c2bae829437fe338701a10aaa375e1bb5b5de108de439c08551d")
    static let y = cborHex("1e52ed75701163f7f9e40ddf9f341b3dc9ba860af7e0ca7ca7e9eecd0084d19c")

    @Test func readsTheWebAuthnSpecificationsES256Key() throws {
        let encoded = cborHex("a5010203262001215820") + Self.x + [0x22, 0x58, 0x20] + Self.y
        let key = try COSEKey(cbor: try CBORDecoder.decode(encoded))
        #expect(key == .ec2P256(x: Self.x, y: Self.y))
        #expect(key.algorithm == .es256)
        #expect(key.cbor.encoded == encoded)
        #expect(COSEKey(jwk: key.jwk) == key)
        #expect(key.jwk["x"] == .string(Base64URL.encode(Self.x)))
        #expect(key.publicKey == (try JWK(json: key.jwk)).key, "the same key as Core's PublicKey")
        // A point off the curve decodes (its parameters are well formed) but makes no key.
        #expect(COSEKey.ec2P256(x: Self.x, y: Self.x).publicKey == nil)
    }

    /// RFC 9052 C.7.1 writes the key without `alg` and with a `kid`: WebAuthn needs `alg`.
    @Test func refusesKeysWebAuthnCannotUse() throws {
        func error(_ item: CBOR) -> COSEKey.Error? {
            do {
                _ = try COSEKey(cbor: item)
                return nil
            } catch { return error }
        }
        let rfcKey: CBOR = .map([
            .init(.int(-1), .int(1)), .init(.int(-2), .bytes(Self.x)), .init(.int(-3), .bytes(Self.y)),
            .init(.int(1), .int(2)), .init(.int(2), .bytes(Array("meriadoc.brandybuck@buckland.example".utf8))),
        ])
        #expect(error(rfcKey) == .badParameter(label: 3))
        func with(_ label: Int, _ value: CBOR) -> CBOR {
            var entries = COSEKey.ec2P256(x: Self.x, y: Self.y).cbor.mapValue ?? []
            entries.removeAll { $0.key == .int(label) }
            return .map(entries + [.init(.int(label), value)])
        }
        #expect(error(with(3, .int(-8))) == .unsupportedAlgorithm(-8))
        #expect(error(with(3, .int(-257))) == .algorithmMismatch(keyType: 2, algorithm: -257))
        #expect(error(with(-1, .int(2))) == .unsupportedCurve(2))
        #expect(error(with(-2, .bytes(Array(Self.x.dropFirst())))) == .badLength(label: -2, count: 31))
        #expect(error(with(1, .int(1))) == .unsupportedKeyType(1))
        #expect(error(with(-3, .text("y"))) == .badParameter(label: -3))
        #expect(error(.array([])) == .notAMap)
    }

    @Test func readsAnRS256Key() throws {
        let modulus = [UInt8](repeating: 0xC5, count: 256)
        let key = COSEKey.rsa(modulus: modulus, exponent: [1, 0, 1])
        let encoded = key.cbor.encoded
        #expect(Array(encoded.prefix(8)) == cborHex("a401030339010020"))
        #expect(try COSEKey(cbor: try CBORDecoder.decode(encoded)) == key)
        #expect(key.algorithm == .rs256)
        #expect(COSEKey(jwk: key.jwk) == key)
        #expect(key.publicKey == (try JWK(json: key.jwk)).key)
        #expect(
            COSEKey.rsa(modulus: [UInt8](repeating: 0xC5, count: 128), exponent: [1, 0, 1]).publicKey == nil,
            "1024 bits")
    }
}

/// WebAuthn authenticator data (Web Authentication Level 2 §6.1): written, read back, and
/// refused when cut short, padded or lying about what follows.
@Suite struct AuthenticatorDataLayout {
    static let key = COSEKey.ec2P256(x: COSEKeyVectors.x, y: COSEKeyVectors.y)

    @Test func anAttestedCredentialRoundTrips() throws {
        let data = WebAuthnAuthenticatorData(
            rpIdHash: SHA256.hash(Array("example.com".utf8)), flags: [.userPresent, .userVerified], signCount: 258,
            attestedCredential: .init(
                aaguid: [UInt8](repeating: 7, count: 16), credentialId: [1, 2, 3], publicKey: Self.key),
            extensions: .map([.init(.text("credProtect"), .unsigned(2))]))
        let bytes = data.bytes
        #expect(bytes[32] == 0xC5, "UP, UV, AT and ED")
        #expect(Array(bytes[33..<37]) == [0, 0, 1, 2])
        #expect(Array(bytes[53..<58]) == [0, 3, 1, 2, 3])
        var expected = data
        expected.flags = [.userPresent, .userVerified, .attestedCredentialData, .extensionData]
        #expect(try WebAuthnAuthenticatorData(bytes: bytes) == expected)
    }

    @Test func damageIsNamed() {
        func error(_ bytes: [UInt8]) -> WebAuthnAuthenticatorData.Error? {
            do {
                _ = try WebAuthnAuthenticatorData(bytes: bytes)
                return nil
            } catch { return error }
        }
        let plain = WebAuthnAuthenticatorData(
            rpIdHash: [UInt8](repeating: 0, count: 32), flags: [.userPresent], signCount: 1
        ).bytes
        #expect(error(Array(plain.dropLast())) == .truncated(36))
        #expect(error(plain + [0]) == .trailingBytes(1))
        var claimsCredential = plain
        claimsCredential[32] |= 0x40
        #expect(
            error(claimsCredential + [UInt8](repeating: 0, count: 16) + [0x04, 0x00]) == .credentialIdTooLong(1024))
        #expect(
            error(claimsCredential + [UInt8](repeating: 0, count: 16) + [0, 1, 9, 0xA0])
                == .publicKey(.badParameter(label: 1)))
        var claimsExtensions = plain
        claimsExtensions[32] |= 0x80
        #expect(error(claimsExtensions + [0x01]) == .extensionsNotAMap)
        #expect(error(claimsExtensions + [0xBF]) == .cbor(.truncated(offset: 38)))
    }

    @Test func standardBase64() {
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
        #expect(Base64.decode("+/8=") == [0xFB, 0xFF])
        #expect(Base64.decode("-_8") == nil)
        #expect(Base64.decode("+/8") == nil)
    }
}
