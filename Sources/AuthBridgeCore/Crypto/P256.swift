/// ECDSA over NIST P-256 with SHA-256 (FIPS 186-4 §6, SEC 1 v2 §4.1): keys, signing with
/// deterministic nonces (RFC 6979 §3.2, so a seeded daemon signs reproducibly) and verification.
/// What WebAuthn (ES256, COSE alg −7), device binding and Amster JWTs (JWS ES256) use.
///
/// Verification does not require low S: WebAuthn authenticators produce either half.
public enum P256 {
    public enum KeyError: Error, Equatable, Sendable {
        /// A coordinate, a point encoding or a private key of the wrong size.
        case wrongLength(Int)
        /// SEC 1 §2.3.4: only the uncompressed form (0x04 ‖ X ‖ Y) is read.
        case unsupportedPointFormat(UInt8)
        /// A coordinate not below the field prime p.
        case coordinateOutOfRange
        /// (x, y) does not satisfy the curve equation (the point at infinity has no encoding here).
        case notOnCurve
        /// A private scalar outside [1, n − 1].
        case scalarOutOfRange
    }

    public struct PublicKey: Equatable, Sendable {
        /// Affine coordinates, normal form.
        let x: U256
        let y: U256

        /// From 32-byte big-endian affine coordinates (JWK `x`/`y`, COSE −2/−3), checked on the curve.
        public init(x: [UInt8], y: [UInt8]) throws(KeyError) {
            guard let xValue = U256(bigEndian: x) else { throw .wrongLength(x.count) }
            guard let yValue = U256(bigEndian: y) else { throw .wrongLength(y.count) }
            let field = P256Curve.field
            guard xValue < field.modulus, yValue < field.modulus else { throw .coordinateOutOfRange }
            guard P256Curve.isOnCurve(x: field.toMontgomery(xValue), y: field.toMontgomery(yValue)) else {
                throw .notOnCurve
            }
            self.x = xValue
            self.y = yValue
        }

        /// From SEC 1 §2.3.3 uncompressed point bytes: 0x04 ‖ X ‖ Y (65 bytes).
        public init(uncompressedPoint bytes: [UInt8]) throws(KeyError) {
            guard let format = bytes.first else { throw .wrongLength(0) }
            guard format == 0x04 else { throw .unsupportedPointFormat(format) }
            guard bytes.count == 65 else { throw .wrongLength(bytes.count) }
            try self.init(x: Array(bytes[1..<33]), y: Array(bytes[33..<65]))
        }

        init(point: JacobianPoint) {
            // Only ever a multiple of G by a scalar in [1, n − 1]: never infinity.
            let affine = P256Curve.affine(point) ?? (.zero, .zero)
            x = affine.x
            y = affine.y
        }

        public var xBytes: [UInt8] { x.bigEndianBytes }
        public var yBytes: [UInt8] { y.bigEndianBytes }
        public var uncompressedPoint: [UInt8] { [0x04] + x.bigEndianBytes + y.bigEndianBytes }

        /// Whether `signature` is a valid ECDSA-SHA256 signature of `message` by this key.
        public func isValidSignature(_ signature: Signature, for message: some Sequence<UInt8>) -> Bool {
            isValidSignature(signature, digest: SHA256.hash(message))
        }

        /// The same over a digest already computed (SHA-256's 32 bytes; see `P256.scalar(digest:)`).
        public func isValidSignature(_ signature: Signature, digest: [UInt8]) -> Bool {
            let order = P256Curve.order
            guard let r = U256(bigEndian: signature.r), let s = U256(bigEndian: signature.s),
                !r.isZero, !s.isZero, r < order.modulus, s < order.modulus
            else { return false }
            let e = P256.scalar(digest: digest)
            // w = s⁻¹, u1 = e·w, u2 = r·w (mod n); Montgomery forms cancel in the products.
            let w = order.invert(order.toMontgomery(s))
            let u1 = order.fromMontgomery(order.multiply(order.toMontgomery(e), w))
            let u2 = order.fromMontgomery(order.multiply(order.toMontgomery(r), w))
            let field = P256Curve.field
            let q = JacobianPoint(x: field.toMontgomery(x), y: field.toMontgomery(y), z: field.one)
            guard let point = P256Curve.affine(P256Curve.multiplyTwo(u1, u2, q)) else { return false }
            return order.reduce(point.x) == r
        }
    }

    public struct PrivateKey: Sendable {
        let scalar: U256
        public let publicKey: PublicKey

        /// From a 32-byte big-endian scalar in [1, n − 1].
        public init(rawRepresentation bytes: [UInt8]) throws(KeyError) {
            guard let scalar = U256(bigEndian: bytes) else { throw .wrongLength(bytes.count) }
            guard !scalar.isZero, scalar < P256Curve.order.modulus else { throw .scalarOutOfRange }
            self.scalar = scalar
            publicKey = PublicKey(point: P256Curve.multiplyGenerator(scalar))
        }

        /// A new key from `random` (FIPS 186-4 §B.4.2, rejection sampling): a seeded source gives
        /// the same key each run.
        public init(generatingWith random: RandomSource) {
            while true {
                if let key = try? PrivateKey(rawRepresentation: random.bytes(32)) {
                    self = key
                    return
                }
            }
        }

        public var rawRepresentation: [UInt8] { scalar.bigEndianBytes }

        /// The ECDSA-SHA256 signature of `message`, with RFC 6979's deterministic nonce.
        public func signature(for message: some Sequence<UInt8>) -> Signature {
            signature(digest: SHA256.hash(message))
        }

        /// The same over a digest already computed (SHA-256's 32 bytes; see `P256.scalar(digest:)`).
        public func signature(digest: [UInt8]) -> Signature {
            let order = P256Curve.order
            let e = P256.scalar(digest: digest)
            var nonces = RFC6979Nonces(key: scalar, digest: e)
            while true {
                let k = nonces.next()
                guard let point = P256Curve.affine(P256Curve.multiplyGenerator(k)) else { continue }
                let r = order.reduce(point.x)
                if r.isZero { continue }
                // s = k⁻¹·(e + r·d) mod n.
                let rd = order.multiply(order.toMontgomery(r), order.toMontgomery(scalar))
                let sum = order.add(order.toMontgomery(e), rd)
                let s = order.fromMontgomery(order.multiply(order.invert(order.toMontgomery(k)), sum))
                if s.isZero { continue }
                return Signature(r: r.bigEndianBytes, s: s.bigEndianBytes)
            }
        }
    }
}

extension P256 {
    /// A digest as the scalar e that ECDSA signs (FIPS 186-4 §6.4: its leftmost 256 bits, as an
    /// integer, reduced mod n), so any digest size has one defined meaning; a shorter one is a
    /// smaller integer.
    static func scalar(digest: [UInt8]) -> U256 {
        let bytes = digest.prefix(32)
        let padded = [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
        return P256Curve.order.reduce(U256(bigEndian: padded) ?? .zero)
    }
}

/// RFC 6979 §3.2's HMAC_DRBG for P-256 and SHA-256 (qlen = hlen = 256, so bits2int is the
/// identity and int2octets/bits2octets are 32-byte big-endian encodings).
struct RFC6979Nonces {
    private var k: [UInt8]
    private var v: [UInt8]

    init(key: U256, digest: U256) {
        let seed = key.bigEndianBytes + digest.bigEndianBytes
        v = [UInt8](repeating: 0x01, count: 32)
        k = [UInt8](repeating: 0x00, count: 32)
        k = HMACSHA256.authenticate(v + [0x00] + seed, key: k)  // step d
        v = HMACSHA256.authenticate(v, key: k)  // step e
        k = HMACSHA256.authenticate(v + [0x01] + seed, key: k)  // step f
        v = HMACSHA256.authenticate(v, key: k)  // step g
    }

    /// The next candidate k in [1, n − 1] (step h; a rejected or unusable k continues from h.3).
    mutating func next() -> U256 {
        while true {
            v = HMACSHA256.authenticate(v, key: k)
            let candidate = U256(bigEndian: v) ?? .zero
            k = HMACSHA256.authenticate(v + [0x00], key: k)
            v = HMACSHA256.authenticate(v, key: k)
            if !candidate.isZero, candidate < P256Curve.order.modulus { return candidate }
        }
    }
}
