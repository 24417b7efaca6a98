/// HMAC-SHA256 (RFC 2104), verified against RFC 4231, and PBKDF2-HMAC-SHA256 (RFC 8018),
/// verified against the RFC 7914 §11 vectors.
public enum HMACSHA256 {
    /// A key with its padded blocks already absorbed: each message then costs only its own
    /// blocks, which is what makes PBKDF2's thousands of iterations and per-request JWT checks cheap.
    public struct Key: Sendable {
        private let inner: SHA256
        private let outer: SHA256

        public init(_ key: [UInt8], implementation: SHA256.Implementation = .preferred) {
            var block = key.count > SHA256.blockSize ? SHA256.hash(key, implementation: implementation) : key
            block += [UInt8](repeating: 0, count: SHA256.blockSize - block.count)
            var inner = SHA256(implementation: implementation)
            inner.update(block.map { $0 ^ 0x36 })
            var outer = SHA256(implementation: implementation)
            outer.update(block.map { $0 ^ 0x5c })
            self.inner = inner
            self.outer = outer
        }

        public func authenticate<Bytes: Sequence>(_ message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
            var inner = self.inner
            inner.update(message)
            return [UInt8](unsafeUninitializedCapacity: SHA256.digestSize) { mac, count in
                finish(inner, into: UnsafeMutableRawPointer(mac.baseAddress!))
                count = SHA256.digestSize
            }
        }

        /// The MAC of `message` written to `mac` (32 bytes): PBKDF2's iterations, without arrays.
        func authenticate(_ message: UnsafeRawBufferPointer, into mac: UnsafeMutableRawPointer) {
            var inner = self.inner
            inner.update(buffer: message)
            finish(inner, into: mac)
        }

        private func finish(_ inner: SHA256, into mac: UnsafeMutableRawPointer) {
            var inner = inner
            var outer = self.outer
            withUnsafeTemporaryAllocation(byteCount: SHA256.digestSize, alignment: 8) { innerDigest in
                inner.finalize(into: innerDigest.baseAddress!)
                outer.update(buffer: UnsafeRawBufferPointer(innerDigest))
            }
            outer.finalize(into: mac)
        }
    }

    public static func authenticate(
        _ message: [UInt8], key: [UInt8], implementation: SHA256.Implementation = .preferred
    ) -> [UInt8] {
        Key(key, implementation: implementation).authenticate(message)
    }

    public static func pbkdf2(
        password: [UInt8], salt: [UInt8], iterations: Int, length: Int,
        implementation: SHA256.Implementation = .preferred
    ) -> [UInt8] {
        precondition(iterations > 0 && length > 0)
        let key = Key(password, implementation: implementation)
        let size = SHA256.digestSize
        var derived: [UInt8] = []
        var blockIndex: UInt32 = 1
        // u and t live in one stack buffer: u_i = HMAC(u_{i-1}), t = u_1 ^ … ^ u_c.
        withUnsafeTemporaryAllocation(byteCount: 2 * size, alignment: 8) { buffer in
            let u = buffer.baseAddress!
            let t = u + size
            while derived.count < length {
                let indexBytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: blockIndex >> UInt32($0)) }
                (salt + indexBytes).withUnsafeBytes { key.authenticate($0, into: u) }
                t.copyMemory(from: u, byteCount: size)
                for _ in 1..<iterations {
                    key.authenticate(UnsafeRawBufferPointer(start: u, count: size), into: u)
                    for i in 0..<size / 8 {
                        let mixed =
                            t.load(fromByteOffset: i * 8, as: UInt64.self)
                            ^ u.load(fromByteOffset: i * 8, as: UInt64.self)
                        t.storeBytes(of: mixed, toByteOffset: i * 8, as: UInt64.self)
                    }
                }
                derived += UnsafeRawBufferPointer(start: t, count: size)
                blockIndex += 1
            }
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
