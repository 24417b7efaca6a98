/// Modular exponentiation over a multi-limb odd modulus, in Montgomery form: the arithmetic
/// under RSA verification (RFC 8017 §5.2.2 RSAVP1), the emulated device's RSA signatures and
/// the embedded server's RS256/PS256 tokens. The kernels (product, squaring) are in
/// `Montgomery+Kernels.swift`.
///
/// What is and is not constant time: an exponentiation with a long exponent runs the same
/// sequence of kernel calls for every exponent of the same bit length (fixed five-bit windows,
/// each five squarings and one product, a zero window included), and the kernels have no
/// branch on the values (the final subtraction is selected by a mask). Not constant time: the
/// table entry a window selects is read at an address that depends on the exponent (cache
/// timing), the exponent's length sets the number of windows, and the conversions around it
/// (`reduce`, `add`, `subtract`, key generation) branch on values. The private exponents here
/// are test keys (the emulated phone's, the embedded server's), never a secret of value.
///
/// Values are little-endian arrays of 64-bit limbs, as many as the modulus has.
struct MontgomeryModulus: Equatable, Sendable {
    let limbs: [UInt64]
    /// -m⁻¹ mod 2^64.
    private let mPrime: UInt64
    /// R² mod m (R = 2^(64·count)): converts into Montgomery form.
    private var rSquared: [UInt64] = []

    /// `modulus` must be odd and its top limb non-zero (the caller checks both).
    init(modulus: [UInt64]) {
        limbs = modulus
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- modulus[0] &* inverse) }
        mPrime = 0 &- inverse
        // multiplyRaw, which computeRSquared uses, needs only limbs and mPrime.
        rSquared = computeRSquared()
    }

    var count: Int { limbs.count }

    /// Big-endian bytes to limbs; nil when the value needs more limbs than the modulus has.
    func limbs(bigEndian bytes: some Collection<UInt8>) -> [UInt64]? {
        var out = [UInt64](repeating: 0, count: count)
        for (index, byte) in bytes.reversed().enumerated() {
            guard index / 8 < count else {
                if byte == 0 { continue }
                return nil
            }
            out[index / 8] |= UInt64(byte) << UInt64(8 * (index % 8))
        }
        return out
    }

    static func bigEndianBytes(_ value: [UInt64], count byteCount: Int) -> [UInt8] {
        (0..<byteCount).map { position in
            let index = byteCount - 1 - position
            guard index / 8 < value.count else { return 0 }
            return UInt8(truncatingIfNeeded: value[index / 8] >> UInt64(8 * (index % 8)))
        }
    }

    static func isLess(_ a: [UInt64], _ b: [UInt64]) -> Bool {
        for i in stride(from: a.count - 1, through: 0, by: -1) where a[i] != b[i] { return a[i] < b[i] }
        return false
    }

    /// a − b in place; returns the borrow.
    @discardableResult
    private static func subtract(_ a: inout [UInt64], _ b: [UInt64]) -> UInt64 {
        var borrow: UInt64 = 0
        for i in 0..<a.count {
            let (d1, b1) = a[i].subtractingReportingOverflow(b[i])
            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
            a[i] = d2
            borrow = (b1 ? 1 : 0) | (b2 ? 1 : 0)
        }
        return borrow
    }

    /// 2·a mod m for a < m.
    private func double(_ a: [UInt64]) -> [UInt64] {
        var out = a
        var carry: UInt64 = 0
        for i in 0..<count {
            out[i] = a[i] << 1 | carry
            carry = a[i] >> 63
        }
        if carry != 0 || !Self.isLess(out, limbs) { Self.subtract(&out, limbs) }
        return out
    }

    /// R mod m by doubling the modulus's top power of two up to R, then R² mod m as the
    /// Montgomery form of 2^(64·count): square-and-multiply from 2R mod m.
    private func computeRSquared() -> [UInt64] {
        let top = count - 1
        let topBit = 63 - limbs[top].leadingZeroBitCount
        var r = [UInt64](repeating: 0, count: count)
        r[top] = 1 << UInt64(topBit)
        for _ in 0..<(64 - topBit) { r = double(r) }
        let two = double(r)
        let exponent = 64 * count
        var result = r
        for bit in stride(from: Int.bitWidth - 1 - exponent.leadingZeroBitCount, through: 0, by: -1) {
            result = multiplyRaw(result, result)
            if exponent >> bit & 1 == 1 { result = multiplyRaw(result, two) }
        }
        return result
    }

    /// a·b·R⁻¹ mod m, for a, b < m.
    private func multiplyRaw(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let n = count
        var result = [UInt64](repeating: 0, count: n)
        var scratch = [UInt64](repeating: 0, count: 2 * n + 1)
        result.withUnsafeMutableBufferPointer { out in
            scratch.withUnsafeMutableBufferPointer { t in
                a.withUnsafeBufferPointer { a in
                    b.withUnsafeBufferPointer { b in
                        limbs.withUnsafeBufferPointer { m in
                            Self.multiply(
                                out.baseAddress!, a.baseAddress!, b.baseAddress!, m.baseAddress!, n, mPrime,
                                t.baseAddress!)
                        }
                    }
                }
            }
        }
        return result
    }

    /// a·b mod m, for a, b < m.
    func product(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] { multiplyRaw(multiplyRaw(a, b), rSquared) }

    /// a mod m for a value of up to twice the modulus's limbs (hi·R + lo), when m's top bit is
    /// set (so each half is below 2m).
    func reduce(wide value: [UInt64]) -> [UInt64] {
        var lo = Array(value.prefix(count)) + [UInt64](repeating: 0, count: max(0, count - value.count))
        var hi = Array(value.dropFirst(count).prefix(count))
        hi += [UInt64](repeating: 0, count: count - hi.count)
        if !Self.isLess(lo, limbs) { Self.subtract(&lo, limbs) }
        if !Self.isLess(hi, limbs) { Self.subtract(&hi, limbs) }
        return add(multiplyRaw(hi, rSquared), lo)
    }

    /// a + b mod m, for a, b < m.
    func add(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var out = a
        var carry: UInt64 = 0
        for i in 0..<count {
            let (s1, c1) = a[i].addingReportingOverflow(b[i])
            let (s2, c2) = s1.addingReportingOverflow(carry)
            out[i] = s2
            carry = (c1 ? 1 : 0) | (c2 ? 1 : 0)
        }
        if carry != 0 || !Self.isLess(out, limbs) { Self.subtract(&out, limbs) }
        return out
    }

    /// a − b mod m, for a, b < m.
    func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var out = a
        if Self.subtract(&out, b) != 0 {
            var carry: UInt64 = 0
            for i in 0..<count {
                let (s1, c1) = out[i].addingReportingOverflow(limbs[i])
                let (s2, c2) = s1.addingReportingOverflow(carry)
                out[i] = s2
                carry = (c1 ? 1 : 0) | (c2 ? 1 : 0)
            }
        }
        return out
    }

    /// base^exponent mod m for base < m and exponent ≥ 1 (left-to-right square-and-multiply).
    func power(_ base: [UInt64], exponent: UInt64) -> [UInt64] { power(base, exponentLimbs: [exponent]) }

    /// The same with a multi-limb exponent (little-endian limbs, at least one bit set): RSA's
    /// private exponent and the primality test's. Fixed windows of five bits for a long
    /// exponent: a table of base⁰…base³¹ in Montgomery form, then per window five squarings and
    /// one product (by R, table[0], for a zero window), all in one buffer; a short one (a public
    /// exponent, a squaring) goes bit by bit, skipping the product for a zero bit, where the
    /// table would cost more than it saves.
    func power(_ base: [UInt64], exponentLimbs exponent: [UInt64]) -> [UInt64] {
        let n = count
        var one = [UInt64](repeating: 0, count: n)
        one[0] = 1
        // The kernel reads n limbs of each operand.
        let base = base.count >= n ? base : base + [UInt64](repeating: 0, count: n - base.count)
        guard let top = exponent.lastIndex(where: { $0 != 0 }) else { return one }
        let highest = 64 * top + UInt64.bitWidth - 1 - exponent[top].leadingZeroBitCount
        let windowBits = highest < 64 ? 1 : 5
        // The windows from the most significant, as table indices.
        var windows: [Int] = []
        windows.reserveCapacity(highest / windowBits + 1)
        for low in stride(from: highest / windowBits * windowBits, through: 0, by: -windowBits) {
            var value = 0
            for bit in stride(from: min(low + windowBits - 1, highest), through: low, by: -1) {
                value = value << 1 | Int(exponent[bit / 64] >> UInt64(bit % 64) & 1)
            }
            windows.append(value)
        }
        let entries = 1 << windowBits
        // The table, then the accumulator, then the kernels' scratch.
        var buffer = [UInt64](repeating: 0, count: (entries + 1) * n + 2 * n + 1)
        buffer.withUnsafeMutableBufferPointer { buffer in
            let table = buffer.baseAddress!
            let result = table + entries * n
            let scratch = result + n
            limbs.withUnsafeBufferPointer { m in
                let m = m.baseAddress!
                base.withUnsafeBufferPointer { base in
                    rSquared.withUnsafeBufferPointer { r2 in
                        // table[1] = base·R; table[0] = R (1·R² ·R⁻¹).
                        Self.multiply(table + n, base.baseAddress!, r2.baseAddress!, m, n, mPrime, scratch)
                    }
                }
                one.withUnsafeBufferPointer { one in
                    rSquared.withUnsafeBufferPointer { r2 in
                        Self.multiply(table, one.baseAddress!, r2.baseAddress!, m, n, mPrime, scratch)
                    }
                }
                for k in 2..<entries {
                    Self.multiply(table + k * n, table + (k - 1) * n, table + n, m, n, mPrime, scratch)
                }
                result.update(from: table + windows[0] * n, count: n)
                windows.withUnsafeBufferPointer { windows in
                    let rest = UnsafeBufferPointer(rebasing: windows.dropFirst())
                    // RSA-2048's primes have 16 limbs: a limb count the compiler knows unrolls and
                    // schedules the kernels' loops better.
                    if n == 16 {
                        Self.ladder(Limbs16Kernel.self, result, table, rest, windowBits, m, n, mPrime, scratch)
                    } else {
                        Self.ladder(AnyLimbsKernel.self, result, table, rest, windowBits, m, n, mPrime, scratch)
                    }
                }
                one.withUnsafeBufferPointer { one in
                    Self.multiply(result, result, one.baseAddress!, m, n, mPrime, scratch)
                }
            }
        }
        return Array(buffer[(entries * n)..<((entries + 1) * n)])
    }

    /// Per window: `bits` squarings of the accumulator, then its product with the window's entry;
    /// bit by bit (a public exponent) a zero bit skips the product.
    private static func ladder<Kernel: MontgomeryKernel>(
        _: Kernel.Type, _ result: UnsafeMutablePointer<UInt64>, _ table: UnsafePointer<UInt64>,
        _ windows: UnsafeBufferPointer<Int>, _ bits: Int, _ m: UnsafePointer<UInt64>, _ n: Int, _ mPrime: UInt64,
        _ scratch: UnsafeMutablePointer<UInt64>
    ) {
        for window in windows {
            for _ in 0..<bits { Kernel.square(result, result, m, n, mPrime, scratch) }
            if bits > 1 || window != 0 {
                Kernel.multiply(result, result, table + window &* n, m, n, mPrime, scratch)
            }
        }
    }
}

/// hi:lo = a·b + c + d, which cannot overflow 128 bits: the limb step of both Montgomery
/// multiplications (RSA's `Montgomery` and P-256's field).
@inline(__always)
func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (UInt64, UInt64) {
    var (hi, lo) = a.multipliedFullWidth(by: b)
    let (lo1, o1) = lo.addingReportingOverflow(c)
    let (lo2, o2) = lo1.addingReportingOverflow(d)
    lo = lo2
    hi &+= (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
    return (hi, lo)
}
