/// The compression function of a FIPS 180-4 hash: its chaining state, what one block does to
/// it, and the digest read from it. `MerkleDamgard` does the rest (buffering and padding).
public protocol BlockCompression: Sendable {
    static var blockSize: Int { get }
    static var digestSize: Int { get }
    /// Bytes of the big-endian bit length that ends the padding: 8 for SHA-1, 16 for SHA-512.
    static var lengthFieldSize: Int { get }
    init()
    mutating func compress(_ block: UnsafeRawBufferPointer)
    func digest(into digest: UnsafeMutableRawPointer)
}

/// A hash built from a `BlockCompression`: partial blocks, then the padding of FIPS 180-4 §5.1
/// (0x80, zeros, the message's length in bits). SHA-1 and SHA-512/384 use it; `SHA256` keeps its
/// own allocation-free buffer, because PBKDF2's thousands of iterations run through it.
public struct MerkleDamgard<Compression: BlockCompression>: HashFunction {
    public static var digestSize: Int { Compression.digestSize }
    public static var blockSize: Int { Compression.blockSize }

    private var compression = Compression()
    private var pending: [UInt8] = []
    /// Bytes absorbed, modulo 2^64: messages never come near 2^61 bytes here.
    private var length: UInt64 = 0

    public init() { pending.reserveCapacity(Compression.blockSize) }

    public mutating func update(buffer bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let take = min(Compression.blockSize - pending.count, rest.count)
            pending += rest.prefix(take)
            rest = rest.dropFirst(take)
            guard pending.count == Compression.blockSize else { return }
            pending.withUnsafeBytes { compression.compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        while rest.count >= Compression.blockSize {
            compression.compress(UnsafeRawBufferPointer(rebasing: rest.prefix(Compression.blockSize)))
            rest = rest.dropFirst(Compression.blockSize)
        }
        pending += rest
    }

    public mutating func finalize(into digest: UnsafeMutableRawPointer) {
        let bitLength = length &* 8
        var tail = pending + [0x80]
        let lengthField = Compression.lengthFieldSize
        while (tail.count + lengthField) % Compression.blockSize != 0 { tail.append(0) }
        // The high bytes of a 128-bit length are zero: the count above is 64 bits.
        tail += [UInt8](repeating: 0, count: lengthField - 8)
        tail += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bitLength >> UInt64($0 * 8)) }
        tail.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                compression.compress(UnsafeRawBufferPointer(rebasing: all[offset..<offset + Compression.blockSize]))
                offset += Compression.blockSize
            }
        }
        pending.removeAll()
        compression.digest(into: digest)
    }
}
