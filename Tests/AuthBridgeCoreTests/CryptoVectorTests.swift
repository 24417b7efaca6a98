import AuthBridgeCore
import Testing

private func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

/// Every vector runs through each compression this CPU has: the portable Swift rounds always,
/// the SHA extensions where CPUID reports them (SHA256ImplementationTests says when it does not).
@Suite struct SHA256Vectors {
    // FIPS 180-4 examples (NIST CSRC "SHA256.pdf", "SHA2_Additional.pdf") and the empty message.
    @Test(arguments: SHA256.Implementation.available)
    func oneBlockMessage(_ implementation: SHA256.Implementation) {
        #expect(
            SHA256.hash(Array("abc".utf8), implementation: implementation).hexString
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// The 448-bit message: its padding needs a second block.
    @Test(arguments: SHA256.Implementation.available)
    func twoBlockMessage(_ implementation: SHA256.Implementation) {
        #expect(
            SHA256.hash(
                Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8), implementation: implementation
            ).hexString
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// The 896-bit message: one whole block compressed from the caller's bytes, then a padded one.
    @Test(arguments: SHA256.Implementation.available)
    func message896Bits(_ implementation: SHA256.Implementation) {
        let message =
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(
            SHA256.hash(Array(message.utf8), implementation: implementation).hexString
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test(arguments: SHA256.Implementation.available)
    func emptyMessage(_ implementation: SHA256.Implementation) {
        #expect(
            SHA256.hash([UInt8](), implementation: implementation).hexString
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// One million 'a's, in chunks that leave a partial block pending between updates, and whole.
    @Test(arguments: SHA256.Implementation.available)
    func millionAs(_ implementation: SHA256.Implementation) {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        var hasher = SHA256(implementation: implementation)
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(hasher.finalize().hexString == expected)
        #expect(
            SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000), implementation: implementation)
                .hexString == expected)
    }

    @Test(arguments: SHA256.Implementation.available)
    func incrementalEqualsOneShot(_ implementation: SHA256.Implementation) {
        let data = Array(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 3).utf8)
        for split in [0, 1, 55, 56, 63, 64, data.count] {
            var hasher = SHA256(implementation: implementation)
            hasher.update(data[..<split])
            hasher.update(data[split...])
            #expect(hasher.finalize() == SHA256.hash(data, implementation: implementation))
        }
    }
}

@Suite struct HMACVectors {
    // RFC 4231 test cases 1, 2, 3, 4, 6 and 7 (HMAC-SHA-256).
    @Test(arguments: SHA256.Implementation.available)
    func rfc4231(_ implementation: SHA256.Implementation) {
        let cases: [(key: [UInt8], data: [UInt8], mac: String)] = [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (
                hex("0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array(
                    "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                        .utf8),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ]
        for testCase in cases {
            #expect(
                HMACSHA256.authenticate(testCase.data, key: testCase.key, implementation: implementation).hexString
                    == testCase.mac)
        }
    }

    // RFC 7914 §11's two PBKDF2-HMAC-SHA256 vectors, and the widely published c=4096 one.
    @Test(arguments: SHA256.Implementation.available)
    func pbkdf2(_ implementation: SHA256.Implementation) {
        #expect(
            HMACSHA256.pbkdf2(
                password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64,
                implementation: implementation
            ).hexString
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
        )
        #expect(
            HMACSHA256.pbkdf2(
                password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80000, length: 64,
                implementation: implementation
            ).hexString
                == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"
        )
        #expect(
            HMACSHA256.pbkdf2(
                password: Array("password".utf8), salt: Array("salt".utf8), iterations: 4096, length: 32,
                implementation: implementation
            ).hexString
                == "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a")
    }

    @Test func constantTimeEquality() {
        #expect(HMACSHA256.equal([1, 2, 3], [1, 2, 3]))
        #expect(!HMACSHA256.equal([1, 2, 3], [1, 2, 4]))
        #expect(!HMACSHA256.equal([1, 2, 3], [1, 2]))
    }
}

@Suite struct Base64URLAndJWT {
    // RFC 4648 §10 vectors, in the URL alphabet without padding.
    @Test func rfc4648() {
        let vectors = [
            "": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("a") == nil)
    }

    // RFC 7636 Appendix B: the S256 challenge of the example verifier.
    @Test func pkceChallengeVector() {
        #expect(
            Base64URL.encode(SHA256.hash("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func signAndVerify() throws {
        let key = Array("secret-key".utf8)
        let token = JWT(claims: ["sub": "alice", "exp": 42]).signed(key: key)
        let verified = try JWT.verify(token, key: key)
        #expect(verified.claims["sub"] == "alice")
        #expect(verified.claims["exp"] == 42)
        #expect(throws: JWS.Error.badSignature) { try JWT.verify(token, key: Array("other".utf8)) }
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"sub":"mallory","exp":42}"#.utf8))
        #expect(throws: JWS.Error.badSignature) { try JWT.verify(parts.joined(separator: "."), key: key) }
        #expect(throws: JWS.Error.malformed(.serialization)) { try JWT.verify("not.a-jwt", key: key) }
    }

    // RFC 7515 Appendix A.1: the HS256 example verifies with the published key.
    @Test func rfc7515Example() throws {
        let key = Base64URL.decode(
            "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow")!
        let token =
            "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let jwt = try JWT.verify(token, key: key)
        #expect(jwt.claims["iss"] == "joe")
    }
}

@Suite struct RandomSources {
    /// Read in blocks of 64 values: across many refills no value repeats and none is zero-filled.
    @Test func theSystemSourceReadInBlocksNeverRepeats() {
        let source = SystemRandomSource()
        let values = (0..<1000).map { _ in source.next() }
        #expect(Set(values).count == 1000)
        #expect(!values.contains(0))
        #expect(Set((0..<200).map { _ in source.uuid() }).count == 200)
    }

    @Test func seededStreamsRepeat() {
        let a = SeededRandomSource(seed: 7)
        let b = SeededRandomSource(seed: 7)
        #expect((0..<16).map { _ in a.next() } == (0..<16).map { _ in b.next() })
        #expect(SeededRandomSource(seed: 8).next() != SeededRandomSource(seed: 7).next())
    }

    @Test func uuidShape() {
        let uuid = SeededRandomSource(seed: 1).uuid()
        let groups = uuid.split(separator: "-").map(\.count)
        #expect(groups == [8, 4, 4, 4, 12])
        #expect(Array(uuid)[14] == "4")
        #expect("89AB".contains(Array(uuid)[19]))
    }

    @Test func alphabets() {
        let random = SeededRandomSource(seed: 3)
        #expect(random.alphanumeric(43).count == 43)
        let digits = random.digits(6)
        #expect(digits.allSatisfy { $0.isNumber })
        #expect(random.bytes(5).count == 5)
    }

    @Test func virtualClockMovesOnlyWhenTold() {
        let clock = VirtualClock(epoch: 100)
        #expect(clock.now == 100)
        clock.advance(by: 2.5)
        #expect(clock.now == 102.5)
    }
}

@Suite struct PercentEncodingRoundTrips {
    @Test func escapeKeepsOnlyUnreserved() {
        #expect(PercentEncoding.escape("a-b_c.d~e") == "a-b_c.d~e")
        #expect(
            PercentEncoding.escape("The request requires: é/?&=") == "The%20request%20requires%3A%20%C3%A9%2F%3F%26%3D")
    }

    @Test func queryParametersDecode() {
        let url = "https://x/cb?code=a%2Bb&state=s+1&error_description=The%20request&empty&bad=%zz"
        #expect(
            PercentEncoding.queryParameters(of: url) == [
                "code": "a+b", "state": "s 1", "error_description": "The request", "empty": "", "bad": "%zz",
            ])
        #expect(PercentEncoding.queryParameters(of: "https://x/cb") == [:])
        #expect(PercentEncoding.unescape(PercentEncoding.escape("✓ a&b=c")) == "✓ a&b=c")
    }
}
