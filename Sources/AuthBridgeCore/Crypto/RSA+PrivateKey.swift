/// RSA private keys for the emulated Android phone, which signs device-binding JWS with RS256 or
/// RS512 as the Android Keystore's RSA keys do (RSASSA-PKCS1-v1_5, RFC 8017 §8.2.1), and for the
/// embedded server's token signing keys (RS256, and PS256 in `RSA+PSS.swift`). A key is
/// its two primes; the modulus and the private exponent follow from them. Made from a random
/// source (`generate`), so a seeded daemon makes the same keys. Not constant time: these are
/// test keys of an emulator, never a secret of value.
extension RSA {
    public struct PrivateKey: Equatable, Sendable {
        /// The primes, big-endian (what `--state-dir` keeps).
        public let p: [UInt8]
        public let q: [UInt8]
        public let publicKey: PublicKey
        /// The CRT form (RFC 8017 §3.2's second representation): dP = e⁻¹ mod (p−1), dQ = e⁻¹
        /// mod (q−1), qInv = q⁻¹ mod p, over Montgomery moduli p and q.
        private let primeP: MontgomeryModulus
        private let primeQ: MontgomeryModulus
        private let dP: [UInt64]
        private let dQ: [UInt64]
        private let qInv: [UInt64]

        public static func == (a: PrivateKey, b: PrivateKey) -> Bool { a.p == b.p && a.q == b.q }

        public enum KeyError: Error, Equatable, Sendable {
            /// p·q is not a modulus `RSA.PublicKey` accepts, the primes are not of equal limb
            /// size with their top bits set, or e has no inverse modulo p−1 or q−1.
            case notAKeyPair
        }

        /// From the primes (big-endian), with e = 65537. They are not tested for primality here
        /// (a saved key was tested when it was made); a pair that gives no inverse is refused.
        public init(p: [UInt8], q: [UInt8]) throws(KeyError) {
            let pLimbs = Limbs.fromBigEndian(p)
            let qLimbs = Limbs.fromBigEndian(q)
            guard pLimbs.count == qLimbs.count, pLimbs.count >= 2, pLimbs[0] & 1 == 1, qLimbs[0] & 1 == 1,
                let pTop = pLimbs.last, let qTop = qLimbs.last, pTop >> 63 == 1, qTop >> 63 == 1,
                let dP = Self.privateExponent(pLimbs), let dQ = Self.privateExponent(qLimbs)
            else { throw .notAKeyPair }
            do {
                publicKey = try PublicKey(
                    modulus: Limbs.bigEndianBytes(Limbs.product(pLimbs, qLimbs)), exponent: [1, 0, 1])
            } catch {
                throw .notAKeyPair
            }
            primeP = MontgomeryModulus(modulus: pLimbs)
            primeQ = MontgomeryModulus(modulus: qLimbs)
            // q < 2p (both have their top bit set); Fermat: q⁻¹ = q^(p−2) mod p.
            qInv = primeP.power(primeP.reduce(wide: qLimbs), exponentLimbs: Limbs.minusOne(Limbs.minusOne(pLimbs)))
            self.dP = dP
            self.dQ = dQ
            self.p = Limbs.bigEndianBytes(pLimbs)
            self.q = Limbs.bigEndianBytes(qLimbs)
        }

        /// e⁻¹ mod (r−1): e·d = 1 + k·(r−1) for the k in 1..<e with k·(r−1) ≡ −1 (mod e).
        private static func privateExponent(_ prime: [UInt64]) -> [UInt64]? {
            let e: UInt64 = 65537
            let order = Limbs.minusOne(prime)
            guard let inverse = inverse(Limbs.remainder(order, e), modulo: e) else { return nil }
            return Limbs.exactQuotient(Limbs.adding(Limbs.multiplied(order, by: (e - inverse) % e), 1), e)
        }

        /// The RSASSA-PKCS1-v1_5 signature of `message` (RFC 8017 §8.2.1): EMSA-PKCS1-v1_5, then
        /// RSASP1 by the CRT (§5.1.2 step 2.b). Deterministic.
        public func signature(for message: some Sequence<UInt8>, hash: Hash) -> [UInt8] {
            let digest =
                switch hash {
                case .sha256: SHA256.hash(message)
                case .sha512: SHA512.hash(message)
                }
            return signature(encoded: RSA.encodedMessage(digest: digest, hash: hash, length: publicKey.byteCount))
        }

        /// RSASP1 (§5.1.2) of an encoded message by the CRT (step 2.b), as `publicKey.byteCount`
        /// bytes: the private-key operation under both signature schemes.
        func signature(encoded: [UInt8]) -> [UInt8] {
            let m = Limbs.fromBigEndian(encoded)
            let s1 = primeP.power(primeP.reduce(wide: m), exponentLimbs: dP)
            let s2 = primeQ.power(primeQ.reduce(wide: m), exponentLimbs: dQ)
            let h = primeP.product(qInv, primeP.subtract(s1, primeP.reduce(wide: s2)))
            var s = Limbs.product(h, primeQ.limbs)
            s += [UInt64](repeating: 0, count: max(0, s2.count + 1 - s.count))
            var carry: UInt64 = 0
            for i in s.indices {
                let (sum1, c1) = s[i].addingReportingOverflow(i < s2.count ? s2[i] : 0)
                let (sum2, c2) = sum1.addingReportingOverflow(carry)
                s[i] = sum2
                carry = (c1 ? 1 : 0) | (c2 ? 1 : 0)
            }
            return MontgomeryModulus.bigEndianBytes(s, count: publicKey.byteCount)
        }

        /// x⁻¹ mod a small prime modulus (extended Euclid), nil when x ≡ 0.
        private static func inverse(_ x: UInt64, modulo m: UInt64) -> UInt64? {
            var (r0, r1) = (Int64(m), Int64(x % m))
            var (t0, t1): (Int64, Int64) = (0, 1)
            while r1 != 0 {
                let quotient = r0 / r1
                (r0, r1) = (r1, r0 - quotient * r1)
                (t0, t1) = (t1, t0 - quotient * t1)
            }
            guard r0 == 1 else { return nil }
            return UInt64(t0 < 0 ? t0 + Int64(m) : t0)
        }
    }
}

/// Little-endian 64-bit limb arithmetic the key pair needs beyond Montgomery's: products,
/// small multiples and quotients, remainders by a small number. Values are trimmed of zero top
/// limbs where that matters to the caller.
enum Limbs {
    static func fromBigEndian(_ bytes: some Collection<UInt8>) -> [UInt64] {
        var out = [UInt64](repeating: 0, count: max(1, (bytes.count + 7) / 8))
        for (index, byte) in bytes.reversed().enumerated() {
            out[index / 8] |= UInt64(byte) << UInt64(8 * (index % 8))
        }
        return trimmed(out)
    }

    static func trimmed(_ value: [UInt64]) -> [UInt64] {
        var value = value
        while value.count > 1, value.last == 0 { value.removeLast() }
        return value
    }

    /// Minimal big-endian bytes.
    static func bigEndianBytes(_ value: [UInt64]) -> [UInt8] {
        let bytes = MontgomeryModulus.bigEndianBytes(value, count: value.count * 8)
        return Array(bytes.drop { $0 == 0 })
    }

    static func product(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var out = [UInt64](repeating: 0, count: a.count + b.count)
        for i in a.indices {
            var carry: UInt64 = 0
            for j in b.indices { (carry, out[i + j]) = multiplyAdd(a[i], b[j], out[i + j], carry) }
            out[i + b.count] = carry
        }
        return trimmed(out)
    }

    /// a − 1 for a ≥ 1.
    static func minusOne(_ a: [UInt64]) -> [UInt64] {
        var out = a
        for i in out.indices {
            let (value, borrow) = out[i].subtractingReportingOverflow(1)
            out[i] = value
            if !borrow { break }
        }
        return trimmed(out)
    }

    static func multiplied(_ a: [UInt64], by k: UInt64) -> [UInt64] {
        var out = [UInt64](repeating: 0, count: a.count + 1)
        var carry: UInt64 = 0
        for i in a.indices { (carry, out[i]) = multiplyAdd(a[i], k, 0, carry) }
        out[a.count] = carry
        return trimmed(out)
    }

    static func adding(_ a: [UInt64], _ k: UInt64) -> [UInt64] {
        var out = a + [0]
        var carry = k
        for i in out.indices where carry != 0 {
            let (value, overflow) = out[i].addingReportingOverflow(carry)
            out[i] = value
            carry = overflow ? 1 : 0
        }
        return trimmed(out)
    }

    static func remainder(_ a: [UInt64], _ k: UInt64) -> UInt64 {
        var rest: UInt64 = 0
        for limb in a.reversed() { rest = k.dividingFullWidth((rest, limb)).remainder }
        return rest
    }

    /// a / k when k divides a; nil otherwise.
    static func exactQuotient(_ a: [UInt64], _ k: UInt64) -> [UInt64]? {
        var out = a
        var rest: UInt64 = 0
        for i in a.indices.reversed() { (out[i], rest) = k.dividingFullWidth((rest, a[i])) }
        return rest == 0 ? trimmed(out) : nil
    }
}
