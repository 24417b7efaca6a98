/// Points of the NIST P-256 curve y² = x³ − 3x + b (SEC 2 §2.4.2, FIPS 186-4 §D.1.2.3) in
/// Jacobian coordinates (x = X/Z², y = Y/Z³; Z = 0 is the point at infinity), with the a = −3
/// doubling "dbl-2001-b" and the addition "add-2007-bl" of the Explicit-Formulas Database
/// (hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-3.html). Coordinates are in Montgomery form.
///
/// Two scalar multiplications:
/// - `multiplyGenerator` (signing, secret scalar): a fixed 4-bit window over all 64 nibbles,
///   each step four doublings and one addition whatever the nibble, the table entry read by
///   scanning all sixteen with masks, and the point at infinity handled by masked selects, not
///   branches. What is not constant time: nothing that depends on the scalar, as far as this code
///   goes; the compiler and CPU (multiplication latency) are not audited.
/// - `multiplyTwo` (verification, public scalars): Shamir's trick with 4-bit windows and
///   branching, complete additions.
struct JacobianPoint: Sendable {
    var x: U256
    var y: U256
    var z: U256

    static let infinity = JacobianPoint(x: P256Curve.field.one, y: P256Curve.field.one, z: .zero)

    var isInfinity: Bool { z.isZero }

    static func select(_ mask: UInt64, _ a: JacobianPoint, _ b: JacobianPoint) -> JacobianPoint {
        JacobianPoint(x: U256.select(mask, a.x, b.x), y: U256.select(mask, a.y, b.y), z: U256.select(mask, a.z, b.z))
    }
}

enum P256Curve {
    static let field = MontgomeryField256.p256Prime
    static let order = MontgomeryField256.p256Order

    /// b, in Montgomery form.
    static let b = field.toMontgomery(
        U256(0x3BCE_3C3E_27D2_604B, 0x651D_06B0_CC53_B0F6, 0xB3EB_BD55_7698_86BC, 0x5AC6_35D8_AA3A_93E7))

    static let generator = JacobianPoint(
        x: field.toMontgomery(
            U256(0xF4A1_3945_D898_C296, 0x7703_7D81_2DEB_33A0, 0xF8BC_E6E5_63A4_40F2, 0x6B17_D1F2_E12C_4247)),
        y: field.toMontgomery(
            U256(0xCBB6_4068_37BF_51F5, 0x2BCE_3357_6B31_5ECE, 0x8EE7_EB4A_7C0F_9E16, 0x4FE3_42E2_FE1A_7F9B)),
        z: field.one)

    /// 0·G … 15·G, shared by every signature and verification.
    static let generatorTable = table(of: generator)

    /// Whether the affine (x, y), in Montgomery form, satisfies the curve equation.
    static func isOnCurve(x: U256, y: U256) -> Bool {
        let f = field
        let x3 = f.multiply(f.square(x), x)
        let threeX = f.add(f.add(x, x), x)
        return f.square(y) == f.add(f.subtract(x3, threeX), b)
    }

    /// The affine coordinates in normal form (not Montgomery), nil for the point at infinity.
    static func affine(_ p: JacobianPoint) -> (x: U256, y: U256)? {
        guard !p.isInfinity else { return nil }
        let f = field
        let zInverse = f.invert(p.z)
        let zInverse2 = f.square(zInverse)
        return (
            f.fromMontgomery(f.multiply(p.x, zInverse2)),
            f.fromMontgomery(f.multiply(p.y, f.multiply(zInverse2, zInverse)))
        )
    }

    static func double(_ p: JacobianPoint) -> JacobianPoint {
        let f = field
        let delta = f.square(p.z)
        let gamma = f.square(p.y)
        let beta = f.multiply(p.x, gamma)
        let t = f.multiply(f.subtract(p.x, delta), f.add(p.x, delta))
        let alpha = f.add(f.add(t, t), t)
        let beta2 = f.add(beta, beta)
        let beta4 = f.add(beta2, beta2)
        let beta8 = f.add(beta4, beta4)
        let x3 = f.subtract(f.square(alpha), beta8)
        let yz = f.add(p.y, p.z)
        let z3 = f.subtract(f.subtract(f.square(yz), gamma), delta)
        let gamma2 = f.square(gamma)
        let gamma2x2 = f.add(gamma2, gamma2)
        let gamma2x4 = f.add(gamma2x2, gamma2x2)
        let gamma2x8 = f.add(gamma2x4, gamma2x4)
        let y3 = f.subtract(f.multiply(alpha, f.subtract(beta4, x3)), gamma2x8)
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// p + q by the general formula, with its intermediate H and r = 2(S2 − S1) for the callers
    /// to detect p = ±q (H = 0), where the formula gives no answer.
    private static func addFormula(_ p: JacobianPoint, _ q: JacobianPoint) -> (sum: JacobianPoint, h: U256, r: U256) {
        let f = field
        let z1z1 = f.square(p.z)
        let z2z2 = f.square(q.z)
        let u1 = f.multiply(p.x, z2z2)
        let u2 = f.multiply(q.x, z1z1)
        let s1 = f.multiply(f.multiply(p.y, q.z), z2z2)
        let s2 = f.multiply(f.multiply(q.y, p.z), z1z1)
        let h = f.subtract(u2, u1)
        let h2 = f.add(h, h)
        let i = f.square(h2)
        let j = f.multiply(h, i)
        let sDifference = f.subtract(s2, s1)
        let r = f.add(sDifference, sDifference)
        let v = f.multiply(u1, i)
        let x3 = f.subtract(f.subtract(f.square(r), j), f.add(v, v))
        let s1j = f.multiply(s1, j)
        let y3 = f.subtract(f.multiply(r, f.subtract(v, x3)), f.add(s1j, s1j))
        let zSum = f.add(p.z, q.z)
        let z3 = f.multiply(f.subtract(f.subtract(f.square(zSum), z1z1), z2z2), h)
        return (JacobianPoint(x: x3, y: y3, z: z3), h, r)
    }

    /// p + q for any two points (public data: it branches).
    static func add(_ p: JacobianPoint, _ q: JacobianPoint) -> JacobianPoint {
        if p.isInfinity { return q }
        if q.isInfinity { return p }
        let (sum, h, r) = addFormula(p, q)
        guard h.isZero else { return sum }
        return r.isZero ? double(p) : .infinity
    }

    /// p + q without branches, for p ≠ ±q or either at infinity: true in `multiplyGenerator`,
    /// whose accumulator 16·a and addend d·G (1 ≤ d ≤ 15, 16·a + d < n) are never equal or opposite.
    private static func addSelecting(_ p: JacobianPoint, _ q: JacobianPoint) -> JacobianPoint {
        let sum = addFormula(p, q).sum
        return JacobianPoint.select(q.z.zeroMask, p, JacobianPoint.select(p.z.zeroMask, q, sum))
    }

    static func table(of p: JacobianPoint) -> [JacobianPoint] {
        var table = [JacobianPoint.infinity, p]
        table.reserveCapacity(16)
        for i in 2..<16 { table.append(i % 2 == 0 ? double(table[i / 2]) : add(table[i - 1], p)) }
        return table
    }

    /// k·G for a secret k < n (see the file header for what is constant time).
    static func multiplyGenerator(_ k: U256) -> JacobianPoint {
        let table = generatorTable
        var accumulator = JacobianPoint.infinity
        for window in stride(from: 63, through: 0, by: -1) {
            if window != 63 {
                for _ in 0..<4 { accumulator = double(accumulator) }
            }
            let digit = UInt64(k.nibble(window))
            var entry = JacobianPoint.infinity
            for (index, candidate) in table.enumerated() {
                let difference = UInt64(index) ^ digit
                let mask = ((difference | (0 &- difference)) >> 63) &- 1
                entry = JacobianPoint.select(mask, candidate, entry)
            }
            accumulator = addSelecting(accumulator, entry)
        }
        return accumulator
    }

    /// u1·G + u2·q for public scalars.
    static func multiplyTwo(_ u1: U256, _ u2: U256, _ q: JacobianPoint) -> JacobianPoint {
        let gTable = generatorTable
        let qTable = table(of: q)
        var accumulator = JacobianPoint.infinity
        for window in stride(from: 63, through: 0, by: -1) {
            if !accumulator.isInfinity {
                for _ in 0..<4 { accumulator = double(accumulator) }
            }
            let d1 = u1.nibble(window)
            if d1 != 0 { accumulator = add(accumulator, gTable[d1]) }
            let d2 = u2.nibble(window)
            if d2 != 0 { accumulator = add(accumulator, qTable[d2]) }
        }
        return accumulator
    }
}
