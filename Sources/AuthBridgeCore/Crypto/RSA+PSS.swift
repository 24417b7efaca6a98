/// RSASSA-PSS with SHA-256, MGF1-SHA-256 and a 32-byte salt (RFC 8017 §8.1, EMSA-PSS §9.1,
/// MGF1 §B.2.1): JWS PS256 (RFC 7518 §3.5), which fixes the salt to the hash's size. The
/// embedded server signs id tokens with it when a client asks for PS256.
///
/// Verification checks every byte the encoding fixes (the trailer, the cleared top bits, the zero
/// padding and its 0x01 separator), then the hash over the recovered salt.
extension RSA {
    /// The salt's size, in bytes: SHA-256's output, as PS256 requires.
    public static let pssSaltLength = 32

    /// EMSA-PSS-ENCODE (§9.1.1) of a SHA-256 digest with `salt`, for a modulus of `modulusBits`:
    /// emBits = modulusBits − 1, so the encoded message has the modulus's byte count less one
    /// when the modulus's size is 1 mod 8, and its top bits are cleared.
    static func pssEncoded(digest: [UInt8], salt: [UInt8], modulusBits: Int) -> [UInt8] {
        let emBits = modulusBits - 1
        let emLength = (emBits + 7) / 8
        let h = SHA256.hash([UInt8](repeating: 0, count: 8) + digest + salt)
        var db = [UInt8](repeating: 0, count: emLength - salt.count - h.count - 2) + [0x01] + salt
        let mask = mgf1(seed: h, length: db.count)
        for i in db.indices { db[i] ^= mask[i] }
        db[0] &= 0xFF >> UInt8(8 * emLength - emBits)
        return db + h + [0xBC]
    }

    /// MGF1 with SHA-256 (§B.2.1): SHA-256(seed ‖ counter) for counters 0, 1, … until `length`.
    static func mgf1(seed: [UInt8], length: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(length + SHA256.digestSize)
        var counter: UInt32 = 0
        while out.count < length {
            out += SHA256.hash(seed + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: counter >> $0) })
            counter += 1
        }
        return Array(out.prefix(length))
    }
}

extension RSA.PublicKey {
    /// Whether `signature` is an RSASSA-PSS signature of `message` (SHA-256, MGF1-SHA-256,
    /// 32-byte salt) by this key (§8.1.2, EMSA-PSS-VERIFY §9.1.2).
    public func isValidPSSSignature(_ signature: [UInt8], for message: some Sequence<UInt8>) -> Bool {
        // §8.1.2 step 1: exactly k bytes; RSAVP1 (§5.2.2): s < n.
        guard signature.count == byteCount, let s = modulus.limbs(bigEndian: signature),
            MontgomeryModulus.isLess(s, modulus.limbs)
        else { return false }
        let emBits = modulusBits - 1
        let emLength = (emBits + 7) / 8
        let recovered = MontgomeryModulus.bigEndianBytes(modulus.power(s, exponent: exponent), count: byteCount)
        // I2OSP(m, emLen) fails when m needs the extra byte.
        guard recovered.prefix(byteCount - emLength).allSatisfy({ $0 == 0 }) else { return false }
        let em = Array(recovered.suffix(emLength))
        let hashLength = SHA256.digestSize
        let saltLength = RSA.pssSaltLength
        guard emLength >= hashLength + saltLength + 2, em.last == 0xBC else { return false }
        var db = Array(em[0..<(emLength - hashLength - 1)])
        let h = Array(em[(emLength - hashLength - 1)..<(emLength - 1)])
        let topMask = UInt8(truncatingIfNeeded: 0xFF << UInt8(8 - (8 * emLength - emBits)))
        guard db[0] & topMask == 0 else { return false }
        let mask = RSA.mgf1(seed: h, length: db.count)
        for i in db.indices { db[i] ^= mask[i] }
        db[0] &= ~topMask
        let padding = emLength - hashLength - saltLength - 2
        guard db[0..<padding].allSatisfy({ $0 == 0 }), db[padding] == 0x01 else { return false }
        let salt = db.suffix(saltLength)
        let expected = SHA256.hash([UInt8](repeating: 0, count: 8) + SHA256.hash(message) + salt)
        return HMACSHA256.equal(expected, h)
    }
}

extension RSA.PrivateKey {
    /// The RSASSA-PSS signature of `message` (§8.1.1) with the given salt (32 bytes for PS256).
    public func pssSignature(for message: some Sequence<UInt8>, salt: [UInt8]) -> [UInt8] {
        let encoded = RSA.pssEncoded(digest: SHA256.hash(message), salt: salt, modulusBits: publicKey.modulusBits)
        return signature(encoded: encoded)
    }

    /// The same with the salt derived from the key and the message, HMAC-SHA256(p, SHA-256(M)),
    /// as RFC 6979 derives an ECDSA nonce: unpredictable without the key, and the same each
    /// time, so a seeded daemon's tokens repeat.
    public func pssSignature(for message: some Sequence<UInt8>) -> [UInt8] {
        let digest = SHA256.hash(message)
        let salt = HMACSHA256.Key(p).authenticate(digest)
        return signature(encoded: RSA.pssEncoded(digest: digest, salt: salt, modulusBits: publicKey.modulusBits))
    }
}
