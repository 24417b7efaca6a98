/// A credential public key as a COSE_Key (RFC 9052 §7): what a WebAuthn authenticator puts in
/// its attested credential data. The two AM's WebAuthn nodes offer by default: ES256 (EC2 on
/// P-256, RFC 9053 §2.1 and §7.1.1) and RS256 (RSA with PKCS#1 v1.5 and SHA-256, RFC 8812 §2,
/// RSA key parameters from RFC 8230 §4). Only the parameters are read here; whether an EC2
/// point lies on the curve is asked when the key is turned into a P-256 key.
public enum COSEKey: Equatable, Sendable {
    /// kty 2, crv 1, alg −7: 32-byte big-endian affine coordinates.
    case ec2P256(x: [UInt8], y: [UInt8])
    /// kty 3, alg −257: big-endian modulus and public exponent.
    case rsa(modulus: [UInt8], exponent: [UInt8])

    /// COSE algorithm identifiers (IANA "COSE Algorithms").
    public enum Algorithm: Int, Sendable, CaseIterable {
        case es256 = -7
        case rs256 = -257

        /// The JCA name AM keeps on a WebAuthn device (`SHA256withECDSA`, `SHA256withRSA`).
        public var javaName: String { self == .es256 ? "SHA256withECDSA" : "SHA256withRSA" }
    }

    public enum Error: Swift.Error, Equatable, Sendable {
        case notAMap
        /// A required label is absent, or holds the wrong kind of item.
        case badParameter(label: Int)
        case unsupportedKeyType(Int)
        case unsupportedAlgorithm(Int)
        case unsupportedCurve(Int)
        /// The algorithm belongs to another key type.
        case algorithmMismatch(keyType: Int, algorithm: Int)
        case badLength(label: Int, count: Int)
    }

    // Labels (RFC 9052 §7.1, RFC 9053 §7.1.1, RFC 8230 §4).
    private static let kty = 1, alg = 3, crv = -1, x = -2, y = -3, n = -1, e = -2

    public var algorithm: Algorithm {
        switch self {
        case .ec2P256: .es256
        case .rsa: .rs256
        }
    }

    public init(cbor: CBOR) throws(Error) {
        guard cbor.mapValue != nil else { throw .notAMap }
        func int(_ label: Int) throws(Error) -> Int {
            guard let value = cbor[label]?.intValue else { throw .badParameter(label: label) }
            return value
        }
        func bytes(_ label: Int, _ sizes: ClosedRange<Int>) throws(Error) -> [UInt8] {
            guard let value = cbor[label]?.bytesValue else { throw .badParameter(label: label) }
            guard sizes.contains(value.count) else { throw .badLength(label: label, count: value.count) }
            return value
        }
        let keyType = try int(Self.kty)
        let algorithm = try int(Self.alg)
        guard let known = Algorithm(rawValue: algorithm) else { throw .unsupportedAlgorithm(algorithm) }
        switch keyType {
        case 2:
            guard known == .es256 else { throw .algorithmMismatch(keyType: keyType, algorithm: algorithm) }
            let curve = try int(Self.crv)
            guard curve == 1 else { throw .unsupportedCurve(curve) }
            self = .ec2P256(x: try bytes(Self.x, 32...32), y: try bytes(Self.y, 32...32))
        case 3:
            guard known == .rs256 else { throw .algorithmMismatch(keyType: keyType, algorithm: algorithm) }
            // 512 bytes is RSA-4096, the largest key an authenticator makes.
            self = .rsa(modulus: try bytes(Self.n, 1...512), exponent: try bytes(Self.e, 1...8))
        default:
            throw .unsupportedKeyType(keyType)
        }
    }

    /// Core's key for these parameters, when they make one (a point on P-256, an RSA modulus of
    /// 2048 to 4096 bits): what a signature by the credential is verified with. Decoding keeps
    /// the parameters as sent, so an unusable key fails the signature check, not the parse.
    public var publicKey: PublicKey? {
        switch self {
        case .ec2P256(let x, let y): (try? P256.PublicKey(x: x, y: y)).map { .p256($0) }
        case .rsa(let modulus, let exponent):
            (try? RSA.PublicKey(modulus: modulus, exponent: exponent)).map { .rsa($0) }
        }
    }

    /// The key in CTAP2's canonical order (lower labels first, positive before negative).
    public var cbor: CBOR {
        switch self {
        case .ec2P256(let x, let y):
            .map([
                .init(.int(Self.kty), .int(2)), .init(.int(Self.alg), .int(Algorithm.es256.rawValue)),
                .init(.int(Self.crv), .int(1)), .init(.int(Self.x), .bytes(x)), .init(.int(Self.y), .bytes(y)),
            ])
        case .rsa(let modulus, let exponent):
            .map([
                .init(.int(Self.kty), .int(3)), .init(.int(Self.alg), .int(Algorithm.rs256.rawValue)),
                .init(.int(Self.n), .bytes(modulus)), .init(.int(Self.e), .bytes(exponent)),
            ])
        }
    }

    /// The key as a JWK (RFC 7517/7518), the form AM keeps a WebAuthn device's key in.
    public var jwk: JSONObject {
        switch self {
        case .ec2P256(let x, let y):
            ["kty": "EC", "crv": "P-256", "x": .string(Base64URL.encode(x)), "y": .string(Base64URL.encode(y))]
        case .rsa(let modulus, let exponent):
            ["kty": "RSA", "n": .string(Base64URL.encode(modulus)), "e": .string(Base64URL.encode(exponent))]
        }
    }

    /// A key from its JWK (`jwk` read back); nil for anything else.
    public init?(jwk: JSONObject) {
        func bytes(_ name: String) -> [UInt8]? {
            guard case .string(let text)? = jwk[name] else { return nil }
            return Base64URL.decode(text)
        }
        switch jwk["kty"] {
        case "EC"?:
            guard jwk["crv"] == "P-256", let x = bytes("x"), let y = bytes("y"), x.count == 32, y.count == 32 else {
                return nil
            }
            self = .ec2P256(x: x, y: y)
        case "RSA"?:
            guard let n = bytes("n"), let e = bytes("e"), !n.isEmpty, !e.isEmpty else { return nil }
            self = .rsa(modulus: n, exponent: e)
        default:
            return nil
        }
    }
}
