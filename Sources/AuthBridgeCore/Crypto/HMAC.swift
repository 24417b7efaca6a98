/// HMAC-SHA256 (RFC 2104), verified against RFC 4231, and PBKDF2-HMAC-SHA256 (RFC 8018),
/// verified against the RFC 7914 §11 vectors.
public enum HMACSHA256 {
    public static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var keyBlock = key.count > SHA256.blockSize ? SHA256.hash(key) : key
        keyBlock += [UInt8](repeating: 0, count: SHA256.blockSize - keyBlock.count)
        var inner = SHA256()
        inner.update(keyBlock.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(keyBlock.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    public static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        precondition(iterations > 0 && length > 0)
        var derived: [UInt8] = []
        var blockIndex: UInt32 = 1
        while derived.count < length {
            let indexBytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: blockIndex >> UInt32($0)) }
            var u = authenticate(salt + indexBytes, key: password)
            var t = u
            for _ in 1..<iterations {
                u = authenticate(u, key: password)
                for i in 0..<t.count { t[i] ^= u[i] }
            }
            derived += t
            blockIndex += 1
        }
        return Array(derived.prefix(length))
    }

    /// Constant-time comparison, so a timing difference cannot reveal a digest prefix.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
