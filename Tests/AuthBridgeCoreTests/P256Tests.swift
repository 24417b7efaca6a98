import AuthBridgeCore
import Testing

/// ECDSA P-256 with SHA-256: RFC 6979 §A.2.5's deterministic signatures, Wycheproof's
/// ecdsa_secp256r1_sha256 vectors (C2SP/wycheproof testvectors/ecdsa_secp256r1_sha256_test.json,
/// group 1), and refusals of malformed keys and signatures.
@Suite struct P256Tests {
    /// RFC 6979 §A.2.5: the private key, its public key, and (k, r, s) for two messages.
    static let rfc6979Key = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"
    static let rfc6979X = "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
    static let rfc6979Y = "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
    static let rfc6979Signatures = [
        (
            "sample", "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
            "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"
        ),
        (
            "test", "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
            "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"
        ),
    ]

    static let order = "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551"
    static let prime = "FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF"

    @Test func rfc6979PublicKey() throws {
        let key = try P256.PrivateKey(rawRepresentation: decodeHex(Self.rfc6979Key))
        #expect(key.publicKey.xBytes == decodeHex(Self.rfc6979X))
        #expect(key.publicKey.yBytes == decodeHex(Self.rfc6979Y))
        #expect(key.rawRepresentation == decodeHex(Self.rfc6979Key))
    }

    @Test func rfc6979DeterministicSignatures() throws {
        let key = try P256.PrivateKey(rawRepresentation: decodeHex(Self.rfc6979Key))
        for (message, r, s) in Self.rfc6979Signatures {
            let signature = key.signature(for: Array(message.utf8))
            #expect(signature.r == decodeHex(r), "r for \(message)")
            #expect(signature.s == decodeHex(s), "s for \(message)")
            #expect(key.publicKey.isValidSignature(signature, for: Array(message.utf8)))
            #expect(!key.publicKey.isValidSignature(signature, for: Array((message + ".").utf8)))
        }
    }

    static let wycheproofKey = try! P256.PublicKey(
        uncompressedPoint: decodeHex(
            "042927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838c7787964eaac00e5921fb1498a60f4606766b3d9685001558d1a974e7341513e"
        ))
    static let wycheproofMessage = decodeHex("313233343030")
    static let r = "2ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18"

    /// tcId 1 and 3: the same r with s and n − s. Low S is not required (WebAuthn).
    @Test(arguments: [
        "304402202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e1802204cd60b855d442f5b3c7b11eb6c4e0ae7525fe710fab9aa7c77a67f79e6fadd76",
        "304502202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
    ])
    func wycheproofValid(_ der: String) throws {
        let signature = try P256.Signature(derRepresentation: decodeHex(der))
        #expect(Self.wycheproofKey.isValidSignature(signature, for: Self.wycheproofMessage))
        #expect(try P256.Signature(rawRepresentation: signature.rawRepresentation) == signature)
        #expect(signature.derRepresentation == decodeHex(der))
    }

    /// Wycheproof tcIds 2 (s missing its zero byte: negative), 4, 5 (long-form lengths), 6, 7
    /// (wrong lengths), 8, 10, 11, 14 (absurd lengths), 15, 16 (indefinite), 18, 19, 39 (truncated),
    /// 20, 22, 23 (trailing bytes): all refused by the DER reader.
    @Test(arguments: [
        "304402202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e180220b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "30814502202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "3082004502202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "304602202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "304402202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "3085010000004502202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "30847fffffff02202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "3084ffffffff02202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "30ff02202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "308002202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "304502802ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db",
        "", "30", "3081",
        "304702202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db0000",
        "304502202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db0000",
        "304702202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db0500",
    ])
    func wycheproofMalformedDER(_ der: String) {
        #expect(throws: P256.SignatureError.self) { try P256.Signature(derRepresentation: decodeHex(der)) }
    }

    @Test func derIntegerFormsAreStrict() {
        // r with a redundant zero byte (0x00 0x2b…: the high bit is clear).
        let padded = decodeHex(
            "30460221002ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db"
        )
        #expect(throws: P256.SignatureError.malformedDER(.invalidInteger(offset: 2))) {
            try P256.Signature(derRepresentation: padded)
        }
        // Empty INTEGER; a 33-byte magnitude.
        #expect(throws: P256.SignatureError.self) { try P256.Signature(derRepresentation: decodeHex("3004020002010a")) }
        let long = DER.encode(
            tag: DER.Tag.sequence,
            DER.encodeUnsignedInteger([1] + [UInt8](repeating: 0, count: 32)) + DER.encodeUnsignedInteger([1]))
        #expect(throws: P256.SignatureError.integerTooLarge) { try P256.Signature(derRepresentation: long) }
    }

    /// Out-of-range r and s parse (they are 32-byte values) but never verify.
    @Test func outOfRangeScalarsDoNotVerify() throws {
        let valid = try P256.Signature(
            derRepresentation: decodeHex(
                "304502202ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e18022100b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db"
            ))
        let zero = [UInt8](repeating: 0, count: 32)
        let n = decodeHex(Self.order)
        for raw in [
            zero + valid.s, valid.r + zero, n + valid.s, valid.r + n, valid.r + [UInt8](repeating: 0xFF, count: 32),
        ] {
            let signature = try P256.Signature(rawRepresentation: raw)
            #expect(!Self.wycheproofKey.isValidSignature(signature, for: Self.wycheproofMessage))
        }
        #expect(throws: P256.SignatureError.wrongLength(63)) {
            try P256.Signature(rawRepresentation: Array(n + zero).dropLast())
        }
    }

    @Test func everyBitFlipIsRefused() throws {
        let key = try P256.PrivateKey(rawRepresentation: decodeHex(Self.rfc6979Key))
        let message = Array("sample".utf8)
        let raw = key.signature(for: message).rawRepresentation
        for bit in stride(from: 0, to: 512, by: 7) {
            var flipped = raw
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(!key.publicKey.isValidSignature(try P256.Signature(rawRepresentation: flipped), for: message))
        }
        var digest = SHA256.hash(message)
        #expect(key.publicKey.isValidSignature(key.signature(for: message), digest: digest))
        digest[31] ^= 1
        #expect(!key.publicKey.isValidSignature(key.signature(for: message), digest: digest))
    }

    /// FIPS 186-4 §6.4: a longer digest is cut to its leftmost 256 bits, a shorter one is a
    /// smaller integer; neither is refused or read as zero.
    @Test func digestSizes() throws {
        let key = try P256.PrivateKey(rawRepresentation: decodeHex(Self.rfc6979Key))
        let digest = SHA256.hash(Array("sample".utf8))
        #expect(key.signature(digest: digest + digest) == key.signature(digest: digest))
        let short = Array(digest.prefix(20))
        let signature = key.signature(digest: short)
        #expect(key.publicKey.isValidSignature(signature, digest: short))
        #expect(key.publicKey.isValidSignature(signature, digest: [0] + short))
        #expect(!key.publicKey.isValidSignature(signature, digest: short + [0]))
        #expect(!key.publicKey.isValidSignature(key.signature(digest: []), digest: digest))
    }

    @Test func publicKeyEncodingsAreChecked() throws {
        let x = decodeHex(Self.rfc6979X)
        let y = decodeHex(Self.rfc6979Y)
        let key = try P256.PublicKey(x: x, y: y)
        #expect(key.uncompressedPoint == [0x04] + x + y)
        #expect(try P256.PublicKey(uncompressedPoint: key.uncompressedPoint).xBytes == x)
        var offCurve = y
        offCurve[31] ^= 1
        #expect(throws: P256.KeyError.notOnCurve) { try P256.PublicKey(x: x, y: offCurve) }
        #expect(throws: P256.KeyError.coordinateOutOfRange) { try P256.PublicKey(x: decodeHex(Self.prime), y: y) }
        #expect(throws: P256.KeyError.wrongLength(31)) { try P256.PublicKey(x: Array(x.dropFirst()), y: y) }
        // The point at infinity's SEC 1 encoding (a single zero byte), compressed points, truncation.
        #expect(throws: P256.KeyError.unsupportedPointFormat(0)) { try P256.PublicKey(uncompressedPoint: [0]) }
        #expect(throws: P256.KeyError.unsupportedPointFormat(2)) { try P256.PublicKey(uncompressedPoint: [2] + x) }
        #expect(throws: P256.KeyError.wrongLength(64)) { try P256.PublicKey(uncompressedPoint: [4] + x + y.dropLast()) }
        #expect(throws: P256.KeyError.wrongLength(0)) { try P256.PublicKey(uncompressedPoint: []) }
        // (0, 0) is not on the curve (b ≠ 0): the usual stand-in for infinity is refused too.
        #expect(throws: P256.KeyError.notOnCurve) {
            try P256.PublicKey(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32))
        }
    }

    @Test func privateKeysAreChecked() throws {
        #expect(throws: P256.KeyError.scalarOutOfRange) {
            try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32))
        }
        #expect(throws: P256.KeyError.scalarOutOfRange) {
            try P256.PrivateKey(rawRepresentation: decodeHex(Self.order))
        }
        #expect(throws: P256.KeyError.wrongLength(33)) {
            try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 33))
        }
        // n − 1 is the largest key: its public key is −G, whose x is G's.
        var last = decodeHex(Self.order)
        last[31] -= 1
        let minusG = try P256.PrivateKey(rawRepresentation: last).publicKey
        let one = try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [1]).publicKey
        #expect(minusG.xBytes == one.xBytes)
        #expect(minusG.yBytes != one.yBytes)
    }

    @Test func seededGenerationIsReproducible() {
        let a = P256.PrivateKey(generatingWith: SeededRandomSource(seed: 42))
        let b = P256.PrivateKey(generatingWith: SeededRandomSource(seed: 42))
        let c = P256.PrivateKey(generatingWith: SeededRandomSource(seed: 43))
        #expect(a.rawRepresentation == b.rawRepresentation)
        #expect(a.rawRepresentation != c.rawRepresentation)
        let message = Array("device binding".utf8)
        #expect(a.signature(for: message) == b.signature(for: message))
        #expect(a.publicKey.isValidSignature(a.signature(for: message), for: message))
        #expect(!c.publicKey.isValidSignature(a.signature(for: message), for: message))
    }
}
