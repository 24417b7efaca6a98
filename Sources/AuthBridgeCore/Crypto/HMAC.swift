/// HMAC (RFC 2104) over any `HashFunction`, verified against RFC 2202 (SHA-1) and RFC 4231
/// (SHA-256, SHA-512); PBKDF2-HMAC-SHA256 (RFC 8018), verified against the RFC 7914 §11 vectors.
public enum HMAC<Hash: HashFunction> {
    /// A key with its padded blocks already absorbed: each message then costs only its own
    /// blocks, which is what makes PBKDF2's thousands of iterations and per-request JWT checks cheap.
    /// Inlinable so callers in other targets get it specialized to their hash.
    public struct Key: Sendable {
        @usableFromInline let inner: Hash
        @usableFromInline let outer: Hash

        /// `hasher` is a fresh one, copied for each use: how SHA256 is told its implementation.
        @inlinable
        public init(_ key: [UInt8], hasher: Hash = Hash()) {
            var block = key
            if key.count > Hash.blockSize {
                var hashed = hasher
                hashed.update(key)
                block = hashed.finalize()
            }
            block += [UInt8](repeating: 0, count: Hash.blockSize - block.count)
            var inner = hasher
            inner.update(block.map { $0 ^ 0x36 })
            var outer = hasher
            outer.update(block.map { $0 ^ 0x5c })
            self.inner = inner
            self.outer = outer
        }

        @inlinable
        public func authenticate<Bytes: Sequence>(_ message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
            var inner = self.inner
            inner.update(message)
            return [UInt8](unsafeUninitializedCapacity: Hash.digestSize) { mac, count in
                if let base = mac.baseAddress { finish(inner, into: UnsafeMutableRawPointer(base)) }
                count = Hash.digestSize
            }
        }

        /// The MAC of `message` written to `mac` (`Hash.digestSize` bytes): PBKDF2's iterations,
        /// without arrays.
        @inlinable
        func authenticate(_ message: UnsafeRawBufferPointer, into mac: UnsafeMutableRawPointer) {
            var inner = self.inner
            inner.update(buffer: message)
            finish(inner, into: mac)
        }

        @inlinable
        func finish(_ inner: Hash, into mac: UnsafeMutableRawPointer) {
            var inner = inner
            var outer = self.outer
            withUnsafeTemporaryAllocation(byteCount: Hash.digestSize, alignment: 8) { innerDigest in
                if let base = innerDigest.baseAddress { inner.finalize(into: base) }
                outer.update(buffer: UnsafeRawBufferPointer(innerDigest))
            }
            outer.finalize(into: mac)
        }
    }

    public static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        Key(key).authenticate(message)
    }

    /// Constant-time comparison (`ConstantTime.equal`), where MACs are compared.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool { ConstantTime.equal(a, b) }
}

public typealias HMACSHA1 = HMAC<SHA1>
public typealias HMACSHA256 = HMAC<SHA256>
public typealias HMACSHA384 = HMAC<SHA384>
public typealias HMACSHA512 = HMAC<SHA512>

extension HMAC.Key where Hash == SHA256 {
    public init(_ key: [UInt8], implementation: SHA256.Implementation) {
        self.init(key, hasher: SHA256(implementation: implementation))
    }
}

extension HMAC where Hash == SHA256 {
    public static func authenticate(
        _ message: [UInt8], key: [UInt8], implementation: SHA256.Implementation
    ) -> [UInt8] {
        Key(key, implementation: implementation).authenticate(message)
    }

    public static func pbkdf2(
        password: [UInt8], salt: [UInt8], iterations: Int, length: Int,
        implementation: SHA256.Implementation = .preferred
    ) -> [UInt8] {
        guard iterations > 0, length > 0 else { return [] }
        let key = Key(password, implementation: implementation)
        let size = SHA256.digestSize
        var derived: [UInt8] = []
        var blockIndex: UInt32 = 1
        // u and t live in one stack buffer: u_i = HMAC(u_{i-1}), t = u_1 ^ … ^ u_c.
        withUnsafeTemporaryAllocation(byteCount: 2 * size, alignment: 8) { buffer in
            guard let u = buffer.baseAddress else { return }
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
}
