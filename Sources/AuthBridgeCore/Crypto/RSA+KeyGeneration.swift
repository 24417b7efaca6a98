/// Making an RSA key pair (RFC 8017 §3, FIPS 186-5 §A.1.3's shape): two random primes of half the
/// modulus size each, their top two bits set so the modulus has exactly `bits` bits, p−1 and q−1
/// prime to e = 65537. Candidates are sieved by the small primes, stepping by two from a random
/// odd start, then tested by Miller–Rabin (FIPS 186-5 §B.3: five rounds suffice for 1024-bit
/// primes drawn at random).
extension RSA.PrivateKey {
    /// A new key pair of `bits` (2048 unless asked otherwise; a multiple of 128 from 2048 to 4096).
    public static func generate(bits: Int = 2048, random: RandomSource) -> RSA.PrivateKey {
        let half = max(1024, min(2048, bits / 2)) / 64 * 64
        while true {
            let p = RSAPrimes.prime(bits: half, random: random)
            let q = RSAPrimes.prime(bits: half, random: random)
            guard p != q, let key = try? RSA.PrivateKey(p: Limbs.bigEndianBytes(p), q: Limbs.bigEndianBytes(q))
            else { continue }
            return key
        }
    }
}

enum RSAPrimes {
    /// The odd primes below 2^12: the sieve.
    static let small: [UInt64] = {
        var composite = [Bool](repeating: false, count: 4096)
        var primes: [UInt64] = []
        for n in 3..<4096 where n % 2 == 1 && !composite[n] {
            primes.append(UInt64(n))
            for multiple in stride(from: n * n, to: 4096, by: 2 * n) { composite[multiple] = true }
        }
        return primes
    }()

    static let millerRabinBases: [UInt64] = [2, 3, 5, 7, 11]

    /// A random prime of exactly `bits` bits (a multiple of 64) with its top two bits set and
    /// p ≢ 1 (mod 65537).
    static func prime(bits: Int, random: RandomSource) -> [UInt64] {
        let count = bits / 64
        while true {
            var candidate = (0..<count).map { _ in random.next() }
            candidate[count - 1] |= 0xC000_0000_0000_0000
            candidate[0] |= 1
            var residues = small.map { Limbs.remainder(candidate, $0) }
            // Step by two through a window; a new random start if it holds no prime.
            for step in 0..<2048 {
                if step > 0 {
                    candidate = Limbs.adding(candidate, 2)
                    for i in residues.indices { residues[i] = (residues[i] + 2) % small[i] }
                }
                guard candidate.count == count, candidate[count - 1] >> 62 == 3 else { break }
                if residues.contains(0) || Limbs.remainder(candidate, 65537) == 1 { continue }
                if isProbablePrime(candidate) { return candidate }
            }
        }
    }

    /// Miller–Rabin with the fixed bases (the candidates are random, not chosen by an adversary).
    static func isProbablePrime(_ n: [UInt64]) -> Bool {
        let modulus = MontgomeryModulus(modulus: n)
        let nMinusOne = Limbs.minusOne(n)
        var d = nMinusOne
        var s = 0
        while d[0] & 1 == 0 {
            d = shiftedRight(d)
            s += 1
        }
        var one = [UInt64](repeating: 0, count: n.count)
        one[0] = 1
        let minusOne = nMinusOne + [UInt64](repeating: 0, count: n.count - nMinusOne.count)
        bases: for base in millerRabinBases {
            var a = [UInt64](repeating: 0, count: n.count)
            a[0] = base
            var x = modulus.power(a, exponentLimbs: d)
            if x == one || x == minusOne { continue }
            for _ in 1..<max(s, 1) {
                x = modulus.power(x, exponent: 2)
                if x == minusOne { continue bases }
            }
            return false
        }
        return true
    }

    private static func shiftedRight(_ a: [UInt64]) -> [UInt64] {
        var out = a
        for i in out.indices { out[i] = a[i] >> 1 | (i + 1 < a.count ? a[i + 1] << 63 : 0) }
        return out
    }
}
