import CSHA256

/// SHA-256 (FIPS 180-4). Written here because the project takes no third-party packages;
/// verified against the FIPS 180-4 example vectors in the tests.
///
/// A hasher holds no heap storage (the partial block is inline), so copying one — as HMAC does
/// for every message, from its pre-keyed pads — allocates nothing; PBKDF2 runs on the
/// pointer-based `finalize(into:)` and allocates nothing per iteration either.
///
/// Blocks are compressed on the CPU's SHA extensions where it has them (x86-64 SHA-NI, in the
/// C target CSHA256: ~200 instructions a block instead of ~3,800, most of PBKDF2's cost), and by
/// the Swift rounds below everywhere else. This is the one place that chooses.
public struct SHA256: HashFunction {
    public static let digestSize = 32
    public static let blockSize = 64

    /// How blocks are compressed. Every hasher uses `preferred` unless told otherwise; tests
    /// name each one in `available` to check that both give the same digests.
    public enum Implementation: Sendable, CustomStringConvertible {
        /// The Swift rounds: any CPU.
        case portable
        /// SHA-NI through CSHA256: only where CPUID reports SHA, SSSE3 and SSE4.1.
        case shaExtensions

        /// Decided once, from CPUID.
        public static let preferred: Implementation = ab_sha256_extensions_available() != 0 ? .shaExtensions : .portable
        /// What this CPU can run: the portable rounds always, and the extensions if it has them.
        public static var available: [Implementation] { preferred == .portable ? [.portable] : [.portable, preferred] }

        public var description: String {
            switch self {
            case .portable: "portable Swift rounds"
            case .shaExtensions: "x86-64 SHA extensions"
            }
        }
    }

    private typealias Words = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    private var state: Words = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// The partial block (64 bytes) and how much of it is filled.
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var pendingCount = 0
    private var length: UInt64 = 0
    private let implementation: Implementation

    public init(implementation: Implementation) { self.implementation = implementation }

    public init() { self.init(implementation: .preferred) }

    public static func hash<Bytes: Sequence>(_ data: Bytes, implementation: Implementation) -> [UInt8]
    where Bytes.Element == UInt8 {
        var hasher = SHA256(implementation: implementation)
        hasher.update(data)
        return hasher.finalize()
    }

    public static func hash(_ text: String) -> [UInt8] { hash(Array(text.utf8)) }

    /// Whole blocks are compressed straight from the caller's bytes; only a partial block is
    /// copied, into `pending`.
    public mutating func update(buffer bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        length &+= UInt64(bytes.count)
        if pendingCount > 0 {
            let take = min(Self.blockSize - pendingCount, bytes.count)
            let filled = pendingCount
            withUnsafeMutableBytes(of: &pending) {
                $0.baseAddress!.advanced(by: filled).copyMemory(from: base, byteCount: take)
            }
            pendingCount += take
            offset = take
            guard pendingCount == Self.blockSize else { return }
            compressPending()
        }
        let wholeBlocks = (bytes.count - offset) / Self.blockSize
        if wholeBlocks > 0 {
            compress(base + offset, count: wholeBlocks)
            offset += wholeBlocks * Self.blockSize
        }
        if offset < bytes.count {
            withUnsafeMutableBytes(of: &pending) {
                $0.baseAddress!.copyMemory(from: base + offset, byteCount: bytes.count - offset)
            }
            pendingCount = bytes.count - offset
        }
    }

    /// Writes the 32-byte digest to `digest`. The hasher is spent afterwards.
    public mutating func finalize(into digest: UnsafeMutableRawPointer) {
        let bitLength = length &* 8
        // The last one or two blocks: what is pending, 0x80, zeros, the 64-bit length.
        withUnsafeMutableBytes(of: &pending) { block in
            block[pendingCount] = 0x80
            for i in (pendingCount + 1)..<Self.blockSize { block[i] = 0 }
        }
        if pendingCount >= 56 {
            compressPending()
            pending = (0, 0, 0, 0, 0, 0, 0, 0)
        }
        pending.7 = bitLength.bigEndian
        compressPending()
        withUnsafeBytes(of: state) { words in
            for i in 0..<8 {
                digest.storeBytes(
                    of: words.load(fromByteOffset: i * 4, as: UInt32.self).bigEndian, toByteOffset: i * 4,
                    as: UInt32.self)
            }
        }
    }

    private mutating func compressPending() {
        var block = pending
        withUnsafeBytes(of: &block) { compress($0.baseAddress!, count: 1) }
        pendingCount = 0
    }

    private mutating func compress(_ blocks: UnsafeRawPointer, count: Int) {
        switch implementation {
        case .shaExtensions:
            withUnsafeMutablePointer(to: &state) { words in
                words.withMemoryRebound(to: UInt32.self, capacity: 8) {
                    ab_sha256_compress_extensions($0, blocks.assumingMemoryBound(to: UInt8.self), count)
                }
            }
        case .portable:
            for index in 0..<count { compressPortable(blocks + index * Self.blockSize) }
        }
    }

    private mutating func compressPortable(_ block: UnsafeRawPointer) {
        // Fetched before anything is live: a call in the middle spilled the schedule's registers.
        let k: UnsafePointer<UInt32> = ab_sha256_round_constants()
        let start = state
        let end = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 { w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
            for i in 16..<64 {
                let w15 = w[i - 15]
                let w2 = w[i - 2]
                let s0 = Self.rotr(w15, 7) ^ Self.rotr(w15, 18) ^ (w15 &>> 3)
                let s1 = Self.rotr(w2, 17) ^ Self.rotr(w2, 19) ^ (w2 &>> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            return Self.rounds(start, k, UnsafePointer(w.baseAddress!))
        }
        state = (
            start.0 &+ end.0, start.1 &+ end.1, start.2 &+ end.2, start.3 &+ end.3,
            start.4 &+ end.4, start.5 &+ end.5, start.6 &+ end.6, start.7 &+ end.7
        )
    }

    /// The 64 rounds, in a function of their own so the eight working variables live in
    /// registers (captured by a closure, each was a load and a store per use). Eight rounds per
    /// pass with the names rotated instead of the values moved: each round writes only its new
    /// `e` (into d's place) and its new `a` (into h's).
    private static func rounds(_ state: Words, _ k: UnsafePointer<UInt32>, _ w: UnsafePointer<UInt32>) -> Words {
        var (a, b, c, d, e, f, g, h) = state
        var i = 0
        while i < 64 {
            round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
            round(h, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
            round(g, h, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
            round(f, g, h, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
            round(e, f, g, &h, a, b, c, &d, k[i + 4] &+ w[i + 4])
            round(d, e, f, &g, h, a, b, &c, k[i + 5] &+ w[i + 5])
            round(c, d, e, &f, g, h, a, &b, k[i + 6] &+ w[i + 6])
            round(b, c, d, &e, f, g, h, &a, k[i + 7] &+ w[i + 7])
            i += 8
        }
        return (a, b, c, d, e, f, g, h)
    }

    /// One round of FIPS 180-4 §6.2.2 step 3; `kw` is K[t] + W[t].
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
        _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32
    ) {
        let choose = g ^ (e & (f ^ g))
        let majority = (a & b) | (c & (a | b))
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ choose &+ kw
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ majority
        d = d &+ t1
        h = t1 &+ t2
    }

    /// Masking shifts, so each is one rotate instruction.
    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x &>> n) | (x &<< (32 &- n)) }
}
