/// The two Montgomery kernels under `MontgomeryModulus.power`: a product and a squaring, each
/// a·b·R⁻¹ mod m on n-limb operands through raw pointers. An RSA-2048 signature is about 2,500 of
/// them, so they allocate nothing, check no bounds or overflow inside, and do their limb steps
/// in 128-bit arithmetic (`UInt128`: one `mul` and `add`/`adc` pairs). Carries are kept as
/// 64-bit values widened where added: kept as `UInt128`, their zero high halves were loaded into
/// registers on every step (about 6 % of a squaring). No branch depends on the values (see
/// `Montgomery.swift` for what is and is not constant time).
extension MontgomeryModulus {
    /// out = a·b·R⁻¹ mod m for a, b < m (`out` may be `a` or `b`): one pass of the CIOS loop per
    /// limb of b (Koç, Acar, Kaliski 1996), the product and the reduction fused in one inner loop
    /// so their two carry chains run side by side (each step's t stays below 2m, so n + 1 limbs
    /// hold it), then the final subtraction. `t` is scratch of 2n + 1 limbs (n + 1 used).
    @inline(__always)
    static func multiply(
        _ out: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
        _ m: UnsafePointer<UInt64>, _ n: Int, _ mPrime: UInt64, _ t: UnsafeMutablePointer<UInt64>
    ) {
        t.update(repeating: 0, count: n &+ 1)
        var i = 0
        while i < n {
            let bi = UInt128(b[i])
            var p = UInt128(a[0]) &* bi &+ UInt128(t[0])
            var c1 = UInt64(truncatingIfNeeded: p >> 64)
            let q = UInt128(UInt64(truncatingIfNeeded: p) &* mPrime)
            var r = q &* UInt128(m[0]) &+ UInt128(UInt64(truncatingIfNeeded: p))
            var c2 = UInt64(truncatingIfNeeded: r >> 64)
            var j = 1
            while j < n {
                p = UInt128(a[j]) &* bi &+ UInt128(t[j]) &+ UInt128(c1)
                c1 = UInt64(truncatingIfNeeded: p >> 64)
                r = q &* UInt128(m[j]) &+ UInt128(UInt64(truncatingIfNeeded: p)) &+ UInt128(c2)
                t[j &- 1] = UInt64(truncatingIfNeeded: r)
                c2 = UInt64(truncatingIfNeeded: r >> 64)
                j &+= 1
            }
            let s = UInt128(t[n]) &+ UInt128(c1) &+ UInt128(c2)
            t[n &- 1] = UInt64(truncatingIfNeeded: s)
            t[n] = UInt64(truncatingIfNeeded: s >> 64)
            i &+= 1
        }
        subtractIfNotBelow(out, t, m, n)
    }

    /// out = a²·R⁻¹ mod m for a < m (`out` may be `a`): the square's 2n limbs first, each cross
    /// product a[i]·a[j] (i < j) once and then doubled, plus the diagonal; then the reduction row
    /// by row (SOS, same paper). 1.5n² limb products against `multiply`'s 2n²; five in six calls
    /// of an exponentiation are squarings. `t` is scratch of 2n + 1 limbs.
    @inline(__always)
    static func square(
        _ out: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>,
        _ m: UnsafePointer<UInt64>, _ n: Int, _ mPrime: UInt64, _ t: UnsafeMutablePointer<UInt64>
    ) {
        // Cross products, row i into t[2i+1 ... i+n]: row 0 writes fresh limbs, each later row
        // adds onto what the rows before wrote; only t[0] and t[2n−1] are written by none.
        t[0] = 0
        t[2 &* n &- 1] = 0
        var i = 0
        while i < n &- 1 {
            let ai = UInt128(a[i])
            var c: UInt64 = 0
            var j = i &+ 1
            if i == 0 {
                while j < n {
                    let p = ai &* UInt128(a[j]) &+ UInt128(c)
                    t[j] = UInt64(truncatingIfNeeded: p)
                    c = UInt64(truncatingIfNeeded: p >> 64)
                    j &+= 1
                }
            } else {
                while j < n {
                    let p = ai &* UInt128(a[j]) &+ UInt128(t[i &+ j]) &+ UInt128(c)
                    t[i &+ j] = UInt64(truncatingIfNeeded: p)
                    c = UInt64(truncatingIfNeeded: p >> 64)
                    j &+= 1
                }
            }
            t[i &+ n] = c
            i &+= 1
        }
        // Doubled (shifted left by one bit across limbs), plus the squares on the diagonal.
        var shifted: UInt64 = 0
        var c: UInt128 = 0
        i = 0
        while i < n {
            let d = UInt128(a[i]) &* UInt128(a[i])
            let lo = t[2 &* i]
            let hi = t[2 &* i &+ 1]
            let s0 = UInt128(lo << 1 | shifted) &+ (d & lowLimb) &+ c
            t[2 &* i] = UInt64(truncatingIfNeeded: s0)
            let s1 = UInt128(hi << 1 | lo >> 63) &+ (d >> 64) &+ (s0 >> 64)
            t[2 &* i &+ 1] = UInt64(truncatingIfNeeded: s1)
            c = s1 >> 64
            shifted = hi >> 63
            i &+= 1
        }
        // Reduction: adding q·m·2^(64i) clears limb i; the carry out of the top is kept apart.
        // Two rows at a time, the second one limb behind the first, so their carry chains run
        // side by side (row i + 1's q needs only row i's first two limbs).
        var top: UInt128 = 0
        i = 0
        while i &+ 1 < n {
            let q0 = UInt128(t[i] &* mPrime)
            var p0 = q0 &* UInt128(m[0]) &+ UInt128(t[i])
            var c0 = UInt64(truncatingIfNeeded: p0 >> 64)
            p0 = q0 &* UInt128(m[1]) &+ UInt128(t[i &+ 1]) &+ UInt128(c0)
            c0 = UInt64(truncatingIfNeeded: p0 >> 64)
            let q1 = UInt128(UInt64(truncatingIfNeeded: p0) &* mPrime)
            var p1 = q1 &* UInt128(m[0]) &+ UInt128(UInt64(truncatingIfNeeded: p0))
            var c1 = UInt64(truncatingIfNeeded: p1 >> 64)
            var j = 2
            while j < n {
                p0 = q0 &* UInt128(m[j]) &+ UInt128(t[i &+ j]) &+ UInt128(c0)
                c0 = UInt64(truncatingIfNeeded: p0 >> 64)
                p1 = q1 &* UInt128(m[j &- 1]) &+ UInt128(UInt64(truncatingIfNeeded: p0)) &+ UInt128(c1)
                t[i &+ j] = UInt64(truncatingIfNeeded: p1)
                c1 = UInt64(truncatingIfNeeded: p1 >> 64)
                j &+= 1
            }
            let s0 = UInt128(t[i &+ n]) &+ UInt128(c0) &+ top
            p1 = q1 &* UInt128(m[n &- 1]) &+ (s0 & lowLimb) &+ UInt128(c1)
            t[i &+ n] = UInt64(truncatingIfNeeded: p1)
            let s1 = UInt128(t[i &+ n &+ 1]) &+ (p1 >> 64) &+ (s0 >> 64)
            t[i &+ n &+ 1] = UInt64(truncatingIfNeeded: s1)
            top = s1 >> 64
            i &+= 2
        }
        if i < n {  // the last row of an odd limb count
            let q = UInt128(t[i] &* mPrime)
            var carry: UInt128 = 0
            var j = 0
            while j < n {
                let p = q &* UInt128(m[j]) &+ UInt128(t[i &+ j]) &+ carry
                t[i &+ j] = UInt64(truncatingIfNeeded: p)
                carry = p >> 64
                j &+= 1
            }
            let s = UInt128(t[i &+ n]) &+ carry &+ top
            t[i &+ n] = UInt64(truncatingIfNeeded: s)
            top = s >> 64
        }
        t[2 &* n] = UInt64(truncatingIfNeeded: top)
        subtractIfNotBelow(out, t + n, m, n)
    }

    /// out = t − m when t (n + 1 limbs, below 2m) is at least m, else t: both computed, one
    /// kept by a mask. `out` must not overlap `t`.
    @inline(__always)
    private static func subtractIfNotBelow(
        _ out: UnsafeMutablePointer<UInt64>, _ t: UnsafePointer<UInt64>, _ m: UnsafePointer<UInt64>, _ n: Int
    ) {
        var borrow: UInt64 = 0
        var k = 0
        while k < n {
            let d = UInt128(t[k]) &- UInt128(m[k]) &- UInt128(borrow)
            out[k] = UInt64(truncatingIfNeeded: d)
            borrow = UInt64(truncatingIfNeeded: d >> 64) & 1
            k &+= 1
        }
        // t < m exactly when the subtraction borrows out of the top limb too.
        let keep = 0 &- (borrow & (t[n] ^ 1))
        k = 0
        while k < n {
            out[k] = t[k] & keep | out[k] & ~keep
            k &+= 1
        }
    }

    private static var lowLimb: UInt128 { 0xFFFF_FFFF_FFFF_FFFF }
}

/// The kernels for a limb count the compiler knows (so it unrolls and schedules their loops),
/// or for any: `MontgomeryModulus.power` picks one per modulus.
protocol MontgomeryKernel {
    static func multiply(
        _ out: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
        _ m: UnsafePointer<UInt64>, _ n: Int, _ mPrime: UInt64, _ t: UnsafeMutablePointer<UInt64>)
    static func square(
        _ out: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ m: UnsafePointer<UInt64>, _ n: Int,
        _ mPrime: UInt64, _ t: UnsafeMutablePointer<UInt64>)
}

/// 16 limbs: RSA-2048's primes, so every signature's two halves. `n` is ignored.
enum Limbs16Kernel: MontgomeryKernel {
    @inline(never)
    static func multiply(
        _ out: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
        _ m: UnsafePointer<UInt64>, _ n: Int, _ mPrime: UInt64, _ t: UnsafeMutablePointer<UInt64>
    ) { MontgomeryModulus.multiply(out, a, b, m, 16, mPrime, t) }

    @inline(never)
    static func square(
        _ out: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ m: UnsafePointer<UInt64>, _ n: Int,
        _ mPrime: UInt64, _ t: UnsafeMutablePointer<UInt64>
    ) { MontgomeryModulus.square(out, a, m, 16, mPrime, t) }
}

enum AnyLimbsKernel: MontgomeryKernel {
    @inline(never)
    static func multiply(
        _ out: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
        _ m: UnsafePointer<UInt64>, _ n: Int, _ mPrime: UInt64, _ t: UnsafeMutablePointer<UInt64>
    ) { MontgomeryModulus.multiply(out, a, b, m, n, mPrime, t) }

    @inline(never)
    static func square(
        _ out: UnsafeMutablePointer<UInt64>, _ a: UnsafePointer<UInt64>, _ m: UnsafePointer<UInt64>, _ n: Int,
        _ mPrime: UInt64, _ t: UnsafeMutablePointer<UInt64>
    ) { MontgomeryModulus.square(out, a, m, n, mPrime, t) }
}
