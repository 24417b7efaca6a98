/// SHA-1 (FIPS 180-4 §6.1). Broken for collisions but still what HMAC-SHA1 means in OATH
/// (RFC 4226, RFC 6238) and the default of every authenticator app; HMAC's security does not
/// rest on collision resistance. Verified against the FIPS 180-4 examples in the tests.
public typealias SHA1 = MerkleDamgard<SHA1Compression>

public struct SHA1Compression: BlockCompression {
    public static let blockSize = 64
    public static let digestSize = 20
    public static let lengthFieldSize = 8

    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0
    )

    public init() {}

    public mutating func compress(_ block: UnsafeRawBufferPointer) {
        var w = [UInt32](repeating: 0, count: 80)
        for i in 0..<16 { w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
        for i in 16..<80 { w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotatedLeft(1) }
        var (a, b, c, d, e) = h
        for i in 0..<80 {
            let (f, k): (UInt32, UInt32) =
                switch i {
                case 0..<20: ((b & c) | (~b & d), 0x5a82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ed9_eba1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc)
                default: (b ^ c ^ d, 0xca62_c1d6)
                }
            let t = a.rotatedLeft(5) &+ f &+ e &+ k &+ w[i]
            (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, t)
        }
        h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }

    public func digest(into digest: UnsafeMutableRawPointer) {
        for (i, word) in [h.0, h.1, h.2, h.3, h.4].enumerated() {
            digest.storeBytes(of: word.bigEndian, toByteOffset: i * 4, as: UInt32.self)
        }
    }
}

extension UInt32 {
    @inline(__always) fileprivate func rotatedLeft(_ n: UInt32) -> UInt32 { (self &<< n) | (self &>> (32 &- n)) }
}
