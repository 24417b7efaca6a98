import AuthBridgeCore
import Testing

/// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §8.2.2) on RFC 7515 Appendix A.2's key and signature,
/// and the key checks. The Node fixtures (NodeCryptoFixtureTests) add 3072- and 4096-bit keys,
/// e = 3, and encodings forged with the private key that only a lax parser would accept.
@Suite struct RSATests {
    /// RFC 7515 §A.2.1: the RSA key (RFC 7517 §A.1's "2011-04-29"), signing input and signature.
    static let modulus = Base64URL.decode(
        "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"
    )!
    static let signingInput = Array(
        "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            .utf8)
    static let signature = Base64URL.decode(
        "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"
    )!

    @Test func rfc7515AppendixA2() throws {
        let key = try RSA.PublicKey(modulus: Self.modulus, exponent: [1, 0, 1])
        #expect(key.modulusBits == 2048)
        #expect(key.modulusBytes == Self.modulus)
        #expect(key.exponentBytes == [1, 0, 1])
        #expect(key.isValidSignature(Self.signature, for: Self.signingInput))
        #expect(key.isValidSignature(Self.signature, digest: SHA256.hash(Self.signingInput)))
        #expect(!key.isValidSignature(Self.signature, for: Self.signingInput.dropLast()))
    }

    @Test func alteredSignaturesAreRefused() throws {
        let key = try RSA.PublicKey(modulus: [0] + Self.modulus, exponent: [0, 1, 0, 1])
        for bit in stride(from: 0, to: 2048, by: 61) {
            var flipped = Self.signature
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(!key.isValidSignature(flipped, for: Self.signingInput))
        }
        // Not exactly k bytes (even with a harmless leading zero), s ≥ n, s = n, empty.
        #expect(!key.isValidSignature([0] + Self.signature, for: Self.signingInput))
        #expect(!key.isValidSignature(Array(Self.signature.dropFirst()), for: Self.signingInput))
        #expect(!key.isValidSignature([UInt8](repeating: 0xFF, count: 256), for: Self.signingInput))
        #expect(!key.isValidSignature(Self.modulus, for: Self.signingInput))
        #expect(!key.isValidSignature([], for: Self.signingInput))
        #expect(!key.isValidSignature(Self.signature, digest: [1, 2, 3]))
    }

    @Test func keysAreChecked() {
        #expect(throws: RSA.KeyError.unsupportedModulusSize(bits: 1024)) {
            try RSA.PublicKey(modulus: Array(Self.modulus.prefix(128)), exponent: [1, 0, 1])
        }
        #expect(throws: RSA.KeyError.unsupportedModulusSize(bits: 4104)) {
            try RSA.PublicKey(modulus: [UInt8](repeating: 0xFF, count: 513), exponent: [1, 0, 1])
        }
        #expect(throws: RSA.KeyError.unsupportedModulusSize(bits: 0)) { try RSA.PublicKey(modulus: [], exponent: [3]) }
        #expect(throws: RSA.KeyError.evenModulus) {
            try RSA.PublicKey(modulus: Self.modulus.dropLast() + [0x10], exponent: [1, 0, 1])
        }
        for exponent: [UInt8] in [[17], [1], [], [1, 0, 0, 0, 0, 1], [0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]] {
            #expect(throws: RSA.KeyError.unsupportedExponent(exponent)) {
                try RSA.PublicKey(modulus: Self.modulus, exponent: exponent)
            }
        }
        #expect((try? RSA.PublicKey(modulus: Self.modulus, exponent: [3]))?.exponentBytes == [3])
    }
}
