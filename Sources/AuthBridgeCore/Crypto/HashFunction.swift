/// What HMAC needs of a hash (RFC 2104): its block and digest sizes, a fresh hasher, and
/// absorbing and finishing through raw buffers. `SHA256`, `SHA1`, `SHA384` and `SHA512` conform.
public protocol HashFunction: Sendable {
    static var digestSize: Int { get }
    static var blockSize: Int { get }
    init()
    mutating func update(buffer bytes: UnsafeRawBufferPointer)
    /// Writes the `digestSize`-byte digest to `digest`. The hasher is spent afterwards.
    mutating func finalize(into digest: UnsafeMutableRawPointer)
}

extension HashFunction {
    public static func hash<Bytes: Sequence>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = Self()
        hasher.update(data)
        return hasher.finalize()
    }

    public mutating func update<Bytes: Sequence>(_ data: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = data.withContiguousStorageIfAvailable { update(buffer: UnsafeRawBufferPointer($0)) }
        if handled == nil { Array(data).withUnsafeBytes { update(buffer: $0) } }
    }

    public consuming func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Self.digestSize) { digest, count in
            if let base = digest.baseAddress { finalize(into: UnsafeMutableRawPointer(base)) }
            count = Self.digestSize
        }
    }
}
