/// SHA-256 (FIPS 180-4). Written here because the project takes no third-party packages;
/// verified against the FIPS 180-4 example vectors in the tests.
public struct SHA256: Sendable {
    public static let digestSize = 32
    public static let blockSize = 64

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    )
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() { pending.reserveCapacity(Self.blockSize) }

    public static func hash<Bytes: Sequence>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.finalize()
    }

    public static func hash(_ text: String) -> [UInt8] { hash(Array(text.utf8)) }

    public mutating func update<Bytes: Sequence>(_ data: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = data.withContiguousStorageIfAvailable { update(buffer: UnsafeRawBufferPointer($0)) }
        if handled == nil { update(buffer: Array(data)) }
    }

    private mutating func update(buffer bytes: [UInt8]) {
        bytes.withUnsafeBytes { update(buffer: $0) }
    }

    /// Whole blocks are compressed straight from the caller's bytes; only a partial block is
    /// copied, into `pending`.
    public mutating func update(buffer bytes: UnsafeRawBufferPointer) {
        var offset = 0
        length &+= UInt64(bytes.count)
        if !pending.isEmpty {
            let take = min(Self.blockSize - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            offset = take
            guard pending.count == Self.blockSize else { return }
            pending.withUnsafeBytes { compress($0.baseAddress!) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= Self.blockSize {
            compress(bytes.baseAddress! + offset)
            offset += Self.blockSize
        }
        if offset < bytes.count { pending.append(contentsOf: bytes[offset...]) }
    }

    public consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        // The last one or two blocks: what is pending, 0x80, zeros, the 64-bit length.
        let blocks = pending.count < 56 ? 1 : 2
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
            tail.initialize(repeating: 0)
            for (i, byte) in pending.enumerated() { tail[i] = byte }
            tail[pending.count] = 0x80
            let end = blocks * Self.blockSize
            for i in 0..<8 { tail[end - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(i * 8)) }
            for block in 0..<blocks { compress(UnsafeRawPointer(tail.baseAddress! + block * Self.blockSize)) }
        }
        let s = state
        return [UInt8](unsafeUninitializedCapacity: Self.digestSize) { digest, count in
            for (i, word) in [s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7].enumerated() {
                digest[i * 4] = UInt8(truncatingIfNeeded: word >> 24)
                digest[i * 4 + 1] = UInt8(truncatingIfNeeded: word >> 16)
                digest[i * 4 + 2] = UInt8(truncatingIfNeeded: word >> 8)
                digest[i * 4 + 3] = UInt8(truncatingIfNeeded: word)
            }
            count = Self.digestSize
        }
    }

    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                w[i] = UInt32(block.load(fromByteOffset: i * 4, as: UInt8.self)) << 24
                    | UInt32(block.load(fromByteOffset: i * 4 + 1, as: UInt8.self)) << 16
                    | UInt32(block.load(fromByteOffset: i * 4 + 2, as: UInt8.self)) << 8
                    | UInt32(block.load(fromByteOffset: i * 4 + 3, as: UInt8.self))
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.k.withUnsafeBufferPointer { k in
                for i in 0..<64 {
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ ch &+ k[i] &+ w[i]
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    h = g
                    g = f
                    f = e
                    e = d &+ t1
                    d = c
                    c = b
                    b = a
                    a = t1 &+ t2
                }
            }
            state = (
                state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
            )
        }
    }

    @inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
