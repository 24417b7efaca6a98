import AuthBridgeCore
import Testing

private func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}

private let abc = Array("abc".utf8)
private let twoBlocks448 = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
private let message896 = Array(
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        .utf8)
private let millionAs = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)

/// FIPS 180-4 examples (NIST CSRC "SHA1.pdf", "SHA512.pdf", "SHA384.pdf") and the empty message.
@Suite struct SHA1AndSHA512Vectors {
    @Test func sha1() {
        #expect(SHA1.hash(abc).hexString == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.hash(twoBlocks448).hexString == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(SHA1.hash([UInt8]()).hexString == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(SHA1.hash(millionAs).hexString == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func sha512() {
        #expect(
            SHA512.hash(abc).hexString
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        )
        #expect(
            SHA512.hash(message896).hexString
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
        )
        #expect(
            SHA512.hash([UInt8]()).hexString
                == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        )
        #expect(
            SHA512.hash(millionAs).hexString
                == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"
        )
    }

    @Test func sha384() {
        #expect(
            SHA384.hash(abc).hexString
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(
            SHA384.hash(message896).hexString
                == "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039")
    }

    /// Split at every place a partial block can be left pending, the digest is the one-shot one.
    @Test func incrementalEqualsOneShot() {
        let data = Array(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 7).utf8)
        for split in [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, data.count] {
            var sha1 = SHA1()
            sha1.update(data[..<split])
            sha1.update(data[split...])
            #expect(sha1.finalize() == SHA1.hash(data))
            var sha512 = SHA512()
            sha512.update(data[..<split])
            sha512.update(data[split...])
            #expect(sha512.finalize() == SHA512.hash(data))
        }
    }
}

@Suite struct HMACOverEachHash {
    /// RFC 2202 §3, all seven HMAC-SHA-1 test cases.
    @Test func rfc2202() {
        let cases: [(key: [UInt8], data: [UInt8], mac: String)] = [
            ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "125d7342b9ac11cd91a39af48aa17b4f63f175d3"
            ),
            (
                hex("0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
                "4c9007f4026250c6bc8414f9bf50c86c2d7235da"
            ),
            (
                [UInt8](repeating: 0x0c, count: 20), Array("Test With Truncation".utf8),
                "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"
            ),
            (
                [UInt8](repeating: 0xaa, count: 80),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "aa4ae5e15272d00e95705637ce8a3b55ed402112"
            ),
            (
                [UInt8](repeating: 0xaa, count: 80),
                Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
                "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"
            ),
        ]
        for testCase in cases {
            #expect(HMACSHA1.authenticate(testCase.data, key: testCase.key).hexString == testCase.mac)
        }
    }

    /// RFC 4231 §4, HMAC-SHA-512 of test cases 1–4, 5 (truncated to 128 bits), 6 and 7.
    @Test func rfc4231() {
        let cases: [(key: [UInt8], data: [UInt8], mac: String)] = [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"
            ),
            (
                hex("0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
                "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array(
                    "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                        .utf8),
                "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"
            ),
        ]
        for testCase in cases {
            #expect(HMACSHA512.authenticate(testCase.data, key: testCase.key).hexString == testCase.mac)
        }
        let truncated = HMACSHA512.authenticate(
            Array("Test With Truncation".utf8), key: [UInt8](repeating: 0x0c, count: 20))
        #expect(Array(truncated.prefix(16)).hexString == "415fad6271580a531d4179bc891d87a6")
    }

    /// A pre-keyed `Key` gives what the one-shot call gives, message after message.
    @Test func preKeyedEqualsOneShot() {
        let key = HMACSHA512.Key(Array("key".utf8))
        for message in ["", "a", String(repeating: "b", count: 300)] {
            #expect(
                key.authenticate(Array(message.utf8))
                    == HMACSHA512.authenticate(Array(message.utf8), key: Array("key".utf8)))
        }
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equal([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equal("123456", "123456"))
        #expect(!ConstantTime.equal("123456", "123457"))
    }
}
