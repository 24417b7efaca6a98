/// 256-bit integers and Montgomery arithmetic modulo a 256-bit odd prime: P-256's field prime p
/// and its group order n (SEC 2 §2.4.2, FIPS 186-4 §D.1.2.3). Fixed four-limb values on the
/// stack, no heap in the inner loops; the Montgomery product is the CIOS method (Koç, Acar,
/// Kaliski, "Analyzing and comparing Montgomery multiplication algorithms", 1996).
///
/// Additions, subtractions and products do not branch on their operands' values (the final
/// correction is a masked select), so signing's scalar multiplication leaks no timing through them.
struct U256: Equatable, Sendable {
    /// Little-endian limbs: `limbs[0]` is the least significant.
    var limbs: InlineArray<4, UInt64>

    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64) { limbs = [l0, l1, l2, l3] }

    static let zero = U256(0, 0, 0, 0)

    /// Exactly 32 big-endian bytes (nil otherwise).
    init?(bigEndian bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        self = .zero
        for (index, byte) in bytes.enumerated() {
            let limb = 3 - index / 8
            limbs[limb] = limbs[limb] << 8 | UInt64(byte)
        }
    }

    var bigEndianBytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { buffer, count in
            for index in 0..<32 {
                buffer[index] = UInt8(truncatingIfNeeded: limbs[3 - index / 8] >> UInt64(56 - 8 * (index % 8)))
            }
            count = 32
        }
    }

    /// All ones when zero, zero otherwise, without a branch.
    var zeroMask: UInt64 {
        let any = limbs[0] | limbs[1] | limbs[2] | limbs[3]
        return ((any | (0 &- any)) >> 63) &- 1
    }

    var isZero: Bool { zeroMask != 0 }

    static func == (a: U256, b: U256) -> Bool {
        (a.limbs[0] ^ b.limbs[0]) | (a.limbs[1] ^ b.limbs[1]) | (a.limbs[2] ^ b.limbs[2]) | (a.limbs[3] ^ b.limbs[3])
            == 0
    }

    /// a < b, by the borrow of a - b.
    static func < (a: U256, b: U256) -> Bool { a.subtracting(b).borrow != 0 }

    /// Four bits starting at bit `4 * index` (index 0 is the least significant nibble).
    func nibble(_ index: Int) -> Int { Int(truncatingIfNeeded: limbs[index / 16] >> UInt64(4 * (index % 16)) & 0xF) }

    func adding(_ b: U256) -> (sum: U256, carry: UInt64) {
        let (s0, c0) = Self.add(limbs[0], b.limbs[0], 0)
        let (s1, c1) = Self.add(limbs[1], b.limbs[1], c0)
        let (s2, c2) = Self.add(limbs[2], b.limbs[2], c1)
        let (s3, c3) = Self.add(limbs[3], b.limbs[3], c2)
        return (U256(s0, s1, s2, s3), c3)
    }

    func subtracting(_ b: U256) -> (difference: U256, borrow: UInt64) {
        let (d0, b0) = Self.subtract(limbs[0], b.limbs[0], 0)
        let (d1, b1) = Self.subtract(limbs[1], b.limbs[1], b0)
        let (d2, b2) = Self.subtract(limbs[2], b.limbs[2], b1)
        let (d3, b3) = Self.subtract(limbs[3], b.limbs[3], b2)
        return (U256(d0, d1, d2, d3), b3)
    }

    @inline(__always)
    private static func add(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let (s1, c1) = a.addingReportingOverflow(b)
        let (s2, c2) = s1.addingReportingOverflow(carry)
        return (s2, (c1 ? 1 : 0) | (c2 ? 1 : 0))
    }

    @inline(__always)
    private static func subtract(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
        let (d1, b1) = a.subtractingReportingOverflow(b)
        let (d2, b2) = d1.subtractingReportingOverflow(borrow)
        return (d2, (b1 ? 1 : 0) | (b2 ? 1 : 0))
    }

    /// `a` where `mask` is all ones, `b` where it is zero.
    static func select(_ mask: UInt64, _ a: U256, _ b: U256) -> U256 {
        U256(
            (a.limbs[0] & mask) | (b.limbs[0] & ~mask), (a.limbs[1] & mask) | (b.limbs[1] & ~mask),
            (a.limbs[2] & mask) | (b.limbs[2] & ~mask), (a.limbs[3] & mask) | (b.limbs[3] & ~mask))
    }
}

/// Arithmetic modulo an odd 256-bit modulus m on values in Montgomery form (a·R mod m, R = 2^256).
struct MontgomeryField256: Sendable {
    let modulus: U256
    /// -m⁻¹ mod 2^64.
    private let mPrime: UInt64
    /// R² mod m: converts into Montgomery form.
    private let rSquared: U256
    /// R mod m: one, in Montgomery form.
    let one: U256

    init(modulus m: U256) {
        modulus = m
        // Newton's iteration doubles the correct low bits each step: 1 → 64 in six.
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- m.limbs[0] &* inverse) }
        mPrime = 0 &- inverse
        // R mod m = 2^256 - m (m > 2^255), then 256 doublings make R² mod m.
        let r = U256.zero.subtracting(m).difference
        one = r
        var square = r
        for _ in 0..<256 { square = Self.addMod(square, square, m) }
        rSquared = square
    }

    /// P-256's field prime p = 2^256 - 2^224 + 2^192 + 2^96 - 1.
    static let p256Prime = MontgomeryField256(
        modulus: U256(0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0x0000_0000_0000_0000, 0xFFFF_FFFF_0000_0001))
    /// P-256's group order n.
    static let p256Order = MontgomeryField256(
        modulus: U256(0xF3B9_CAC2_FC63_2551, 0xBCE6_FAAD_A717_9E84, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000))

    private static func addMod(_ a: U256, _ b: U256, _ m: U256) -> U256 {
        let (sum, carry) = a.adding(b)
        let (reduced, borrow) = sum.subtracting(m)
        // Keep the sum only when it did not overflow and was already below m.
        return U256.select((0 &- borrow) & ~(0 &- carry), sum, reduced)
    }

    func add(_ a: U256, _ b: U256) -> U256 { Self.addMod(a, b, modulus) }

    func subtract(_ a: U256, _ b: U256) -> U256 {
        let (difference, borrow) = a.subtracting(b)
        let corrected = difference.adding(modulus).sum
        return U256.select(0 &- borrow, corrected, difference)
    }

    func negate(_ a: U256) -> U256 { subtract(.zero, a) }

    /// a·b·R⁻¹ mod m (CIOS), unrolled over locals: twice as fast as indexing a scratch array.
    func multiply(_ a: U256, _ b: U256) -> U256 {
        let (a0, a1, a2, a3) = (a.limbs[0], a.limbs[1], a.limbs[2], a.limbs[3])
        let (m0, m1, m2, m3) = (modulus.limbs[0], modulus.limbs[1], modulus.limbs[2], modulus.limbs[3])
        var (t0, t1, t2, t3, t4): (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        for i in 0..<4 {
            let bi = b.limbs[i]
            var carry: UInt64
            (carry, t0) = multiplyAdd(a0, bi, t0, 0)
            (carry, t1) = multiplyAdd(a1, bi, t1, carry)
            (carry, t2) = multiplyAdd(a2, bi, t2, carry)
            (carry, t3) = multiplyAdd(a3, bi, t3, carry)
            let (s4, o4) = t4.addingReportingOverflow(carry)
            // One reduction step: add q·m, which zeroes the low limb, and shift down a limb.
            let q = t0 &* mPrime
            (carry, _) = multiplyAdd(q, m0, t0, 0)
            (carry, t0) = multiplyAdd(q, m1, t1, carry)
            (carry, t1) = multiplyAdd(q, m2, t2, carry)
            (carry, t2) = multiplyAdd(q, m3, t3, carry)
            let (s3, o3) = s4.addingReportingOverflow(carry)
            t3 = s3
            t4 = (o4 ? 1 : 0) &+ (o3 ? 1 : 0)
        }
        let result = U256(t0, t1, t2, t3)
        let (reduced, borrow) = result.subtracting(modulus)
        // The result is below 2m: subtract m unless it was already below (no overflow limb, a borrow).
        return U256.select((0 &- borrow) & ~(0 &- t4), result, reduced)
    }

    func square(_ a: U256) -> U256 { multiply(a, a) }

    /// Into Montgomery form; `a` must be below the modulus.
    func toMontgomery(_ a: U256) -> U256 { multiply(a, rSquared) }

    func fromMontgomery(_ a: U256) -> U256 { multiply(a, U256(1, 0, 0, 0)) }

    /// a⁻¹ by Fermat (a^(m-2)), in Montgomery form; zero for zero. The exponent is public, so the
    /// square-and-multiply walk over its bits reveals nothing about `a`.
    func invert(_ a: U256) -> U256 {
        let exponent = modulus.subtracting(U256(2, 0, 0, 0)).difference
        var result = one
        for bit in stride(from: 255, through: 0, by: -1) {
            result = square(result)
            if exponent.limbs[bit / 64] >> UInt64(bit % 64) & 1 == 1 { result = multiply(result, a) }
        }
        return result
    }

    /// a mod m for any 256-bit a: one conditional subtraction suffices because m > 2^255.
    func reduce(_ a: U256) -> U256 {
        let (reduced, borrow) = a.subtracting(modulus)
        return U256.select(0 &- borrow, a, reduced)
    }
}
