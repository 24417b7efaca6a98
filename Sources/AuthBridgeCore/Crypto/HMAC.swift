/// HMAC-SHA256 (RFC 2104), verified against RFC 4231, and PBKDF2-HMAC-SHA256 (RFC 8018),
/// verified against the RFC 7914 §11 vectors.
public enum HMACSHA256 {
    /// A key with its padded blocks already absorbed: each message then costs only its own
    /// blocks, which is what makes PBKDF2's thousands of iterations and per-request JWT checks cheap.
    public struct Key: Sendable {
        private let inner: SHA256
        private let outer: SHA256

        public init(_ key: [UInt8]) {
            var block = key.count > SHA256.blockSize ? SHA256.hash(key) : key
            block += [UInt8](repeating: 0, count: SHA256.blockSize - block.count)
            var inner = SHA256()
            inner.update(block.map { $0 ^ 0x36 })
            var outer = SHA256()
            outer.update(block.map { $0 ^ 0x5c })
            self.inner = inner
            self.outer = outer
        }

        public func authenticate<Bytes: Sequence>(_ message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
            var inner = self.inner
            inner.update(message)
            var outer = self.outer
            outer.update(inner.finalize())
            return outer.finalize()
        }
    }

    public static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        Key(key).authenticate(message)
    }

    public static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        precondition(iterations > 0 && length > 0)
        let key = Key(password)
        var derived: [UInt8] = []
        var blockIndex: UInt32 = 1
        while derived.count < length {
            let indexBytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: blockIndex >> UInt32($0)) }
            var u = key.authenticate(salt + indexBytes)
            var t = u
            for _ in 1..<iterations {
                u = key.authenticate(u)
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
