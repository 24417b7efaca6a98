/// RSA public keys and RSASSA-PKCS1-v1_5 signature verification with SHA-256 or SHA-512 (RFC 8017
/// §8.2.2, EMSA-PKCS1-v1_5 §9.2): JWS RS256 and RS512 (RFC 7518 §3.3), COSE alg −257, `packed`
/// attestation with an RSA certificate. Signing (the emulated Android phone's keys) is in
/// `RSA+PrivateKey.swift`.
///
/// The encoded message is rebuilt in full and compared byte for byte with the recovered one, so
/// there is no parsing of the padding or DigestInfo to be lax about (the Bleichenbacher 2006
/// signature forgery needs a parser that skips trailing bytes).
public enum RSA {
    public enum KeyError: Error, Equatable, Sendable {
        /// Moduli from 2048 to 4096 bits only (`bits` is the given modulus's size).
        case unsupportedModulusSize(bits: Int)
        /// An even modulus is not an RSA modulus.
        case evenModulus
        /// Only e = 3 and e = 65537 are accepted (`exponent`: the given one's bytes).
        case unsupportedExponent([UInt8])
    }

    public struct PublicKey: Equatable, Sendable {
        let modulus: MontgomeryModulus
        let exponent: UInt64
        /// The modulus's size in bytes: a signature has exactly this many.
        public let byteCount: Int

        /// From big-endian modulus and exponent bytes (leading zero bytes allowed, as in DER
        /// INTEGERs and JWK `n`/`e`).
        public init(modulus: [UInt8], exponent: [UInt8]) throws(KeyError) {
            let n = modulus.drop { $0 == 0 }
            let bits = n.first.map { n.count * 8 - $0.leadingZeroBitCount } ?? 0
            guard bits >= 2048, bits <= 4096 else { throw .unsupportedModulusSize(bits: bits) }
            guard let last = n.last, last & 1 == 1 else { throw .evenModulus }
            let e = exponent.drop { $0 == 0 }
            let value = e.count <= 4 ? e.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } : 0
            guard value == 3 || value == 65537 else { throw .unsupportedExponent(exponent) }
            byteCount = n.count
            var limbs = [UInt64](repeating: 0, count: (n.count + 7) / 8)
            for (index, byte) in n.reversed().enumerated() {
                limbs[index / 8] |= UInt64(byte) << UInt64(8 * (index % 8))
            }
            self.modulus = MontgomeryModulus(modulus: limbs)
            self.exponent = value
        }

        /// The modulus as minimal big-endian bytes (JWK `n`, DER without its sign byte).
        public var modulusBytes: [UInt8] { MontgomeryModulus.bigEndianBytes(modulus.limbs, count: byteCount) }

        public var exponentBytes: [UInt8] { exponent == 3 ? [3] : [1, 0, 1] }

        public var modulusBits: Int { byteCount * 8 - (modulusBytes.first?.leadingZeroBitCount ?? 0) }

        /// Whether `signature` is an RSASSA-PKCS1-v1_5 signature of `message` with `hash` by this key.
        public func isValidSignature(
            _ signature: [UInt8], for message: some Sequence<UInt8>, hash: Hash = .sha256
        ) -> Bool {
            let digest =
                switch hash {
                case .sha256: SHA256.hash(message)
                case .sha512: SHA512.hash(message)
                }
            return isValidSignature(signature, digest: digest, hash: hash)
        }

        /// The same over a digest already computed (`hash`'s size).
        public func isValidSignature(_ signature: [UInt8], digest: [UInt8], hash: Hash = .sha256) -> Bool {
            // §8.2.2 step 1: exactly k bytes; RSAVP1 (§5.2.2): s < n.
            guard digest.count == hash.digestSize, signature.count == byteCount,
                let s = modulus.limbs(bigEndian: signature), MontgomeryModulus.isLess(s, modulus.limbs)
            else { return false }
            let recovered = MontgomeryModulus.bigEndianBytes(modulus.power(s, exponent: exponent), count: byteCount)
            return HMACSHA256.equal(recovered, RSA.encodedMessage(digest: digest, hash: hash, length: byteCount))
        }
    }

    /// The hash a signature is made over: the signer's choice, so the caller names it (a JWS's
    /// `alg`), never the signature.
    public enum Hash: Sendable {
        case sha256
        case sha512

        var digestSize: Int {
            switch self {
            case .sha256: SHA256.digestSize
            case .sha512: SHA512.digestSize
            }
        }

        /// The DER DigestInfo prefix (RFC 8017 §9.2 note 1).
        var digestInfoPrefix: [UInt8] {
            switch self {
            case .sha256:
                [
                    0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05,
                    0x00, 0x04, 0x20,
                ]
            case .sha512:
                [
                    0x30, 0x51, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05,
                    0x00, 0x04, 0x40,
                ]
            }
        }
    }

    /// EMSA-PKCS1-v1_5: 0x00 0x01 FF…FF 0x00 DigestInfo, `length` bytes (≥ 256 here, so the padding
    /// is always longer than the minimum eight bytes).
    static func encodedMessage(digest: [UInt8], hash: Hash, length: Int) -> [UInt8] {
        let t = hash.digestInfoPrefix + digest
        return [0x00, 0x01] + [UInt8](repeating: 0xFF, count: length - t.count - 3) + [0x00] + t
    }
}
