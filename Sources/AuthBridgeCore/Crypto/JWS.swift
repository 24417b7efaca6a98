/// JWS compact serialization (RFC 7515 §3.1, §5, §7.1) with ES256, RS256, RS512, PS256 and HS256
/// (RFC 7518 §3.2–3.5): device binding (ES256, RS256, and RS512 as the Android SDK signs) and AM's
/// Amster JWT node (ES256/RS256), the embedded server's OAuth tokens (RS256, ES256, PS256), its
/// authIds and push messages (HS256, through `JWT`).
///
/// Verification takes the algorithms the caller allows and one key. Each key kind verifies only
/// its own algorithms (P-256: ES256; RSA: RS256, RS512, PS256; HMAC: HS256), and the header's `alg` must
/// be allowed and be one of them before any cryptography runs: `none`, unknown algorithms, and the
/// RS256/HS256 confusion (an RSA public key's bytes used as an HMAC secret) cannot get through.
public enum JWS {
    public enum Algorithm: String, Sendable, CaseIterable {
        case es256 = "ES256"
        case rs256 = "RS256"
        case rs512 = "RS512"
        case ps256 = "PS256"
        case hs256 = "HS256"
    }

    public enum VerificationKey: Sendable {
        case p256(P256.PublicKey)
        case rsa(RSA.PublicKey)
        case hmac(HMACSHA256.Key)

        public init(_ key: PublicKey) {
            switch key {
            case .p256(let key): self = .p256(key)
            case .rsa(let key): self = .rsa(key)
            }
        }

        public enum Kind: Sendable {
            case p256, rsa, hmac
        }

        public var kind: Kind {
            switch self {
            case .p256: .p256
            case .rsa: .rsa
            case .hmac: .hmac
            }
        }

        /// The only algorithms this key verifies, whatever a caller allows.
        public var algorithms: Set<Algorithm> {
            switch self {
            case .p256: [.es256]
            case .rsa: [.rs256, .rs512, .ps256]
            case .hmac: [.hs256]
            }
        }
    }

    public enum SigningKey: Sendable {
        case p256(P256.PrivateKey)
        case hmac(HMACSHA256.Key)
        /// RS256 or RS512, as the hash says.
        case rsa(RSA.PrivateKey, RSA.Hash)
        /// PS256 (salt derived from the key and the message: `RSA.PrivateKey.pssSignature`).
        case rsaPSS(RSA.PrivateKey)

        public var algorithm: Algorithm {
            switch self {
            case .p256: .es256
            case .hmac: .hs256
            case .rsa(_, .sha256): .rs256
            case .rsa(_, .sha512): .rs512
            case .rsaPSS: .ps256
            }
        }
    }

    public enum Part: Sendable {
        /// Not three dot-separated base64url parts.
        case serialization
        /// Not a JSON object, duplicate member names, or `alg` missing or not a string.
        case header
        /// Not a JSON object where one is required (a JWT's claims).
        case payload
        case signature
    }

    public enum Error: Swift.Error, Equatable, Sendable {
        case malformed(Part)
        /// `alg` is "none" (RFC 7518 §3.6): never accepted.
        case unsecured
        /// `alg` is not among the caller's allowed algorithms (or not one this code knows).
        case algorithmNotAllowed(String)
        /// `alg` is allowed, but the key given is of a kind that does not verify it.
        case keyMismatch(algorithm: Algorithm, key: VerificationKey.Kind)
        /// The header lists critical extensions (RFC 7515 §4.1.11); none is understood here.
        case unsupportedCritical
        case badSignature
    }

    /// A parsed token whose signature is not checked yet: a caller that picks the key from the
    /// header (`kid`) reads `header`, then calls `verify`.
    public struct Unverified: Sendable {
        public let header: JSONObject
        public let payload: [UInt8]
        /// `alg` as written.
        public let algorithmName: String
        let signingInput: ArraySlice<UInt8>
        let signature: [UInt8]

        public func verify(allowed: Set<Algorithm>, key: VerificationKey) throws(Error) -> Verified {
            guard algorithmName != "none" else { throw .unsecured }
            guard let algorithm = Algorithm(rawValue: algorithmName), allowed.contains(algorithm) else {
                throw .algorithmNotAllowed(algorithmName)
            }
            guard key.algorithms.contains(algorithm) else { throw .keyMismatch(algorithm: algorithm, key: key.kind) }
            guard header["crit"] == nil else { throw .unsupportedCritical }
            let valid: Bool
            switch key {
            case .p256(let key):
                guard let signature = try? P256.Signature(rawRepresentation: signature) else {
                    throw .malformed(.signature)
                }
                valid = key.isValidSignature(signature, for: signingInput)
            case .rsa(let key) where algorithm == .ps256:
                valid = key.isValidPSSSignature(signature, for: signingInput)
            case .rsa(let key):
                valid = key.isValidSignature(
                    signature, for: signingInput, hash: algorithm == .rs512 ? .sha512 : .sha256)
            case .hmac(let key):
                valid = HMACSHA256.equal(key.authenticate(signingInput), signature)
            }
            guard valid else { throw .badSignature }
            return Verified(header: header, payload: payload, algorithm: algorithm)
        }
    }

    public struct Verified: Sendable {
        public let header: JSONObject
        public let payload: [UInt8]
        public let algorithm: Algorithm
    }

    /// Splits and decodes a compact JWS; checks nothing cryptographic.
    public static func parse(_ compact: String) throws(Error) -> Unverified {
        // Split on the bytes: splitting the String walks grapheme clusters, which cost most of a
        // userinfo call before (docs/performance.md).
        let bytes = Array(compact.utf8)
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
            let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
            !bytes[(second + 1)...].contains(UInt8(ascii: ".")),
            let headerBytes = Base64URL.decode(bytes: bytes[..<first]),
            let payload = Base64URL.decode(bytes: bytes[(first + 1)..<second]),
            let signature = Base64URL.decode(bytes: bytes[(second + 1)...])
        else { throw .malformed(.serialization) }
        guard case .object(let header)? = try? JSONParser.parse(headerBytes),
            Set(header.keys).count == header.count,
            case .string(let algorithmName)? = header["alg"]
        else { throw .malformed(.header) }
        return Unverified(
            header: header, payload: payload, algorithmName: algorithmName, signingInput: bytes[..<second],
            signature: signature)
    }

    /// Parses and verifies in one step.
    public static func verify(
        _ compact: String, allowed: Set<Algorithm>, key: VerificationKey
    ) throws(Error)
        -> Verified
    {
        try parse(compact).verify(allowed: allowed, key: key)
    }

    /// The compact JWS of `payload`. `header` is written as given with `alg` set to the key's
    /// algorithm (in place if present, first otherwise). ES256 signatures are deterministic
    /// (RFC 6979), so a seeded daemon's tokens repeat.
    public static func sign(payload: [UInt8], header: JSONObject = [:], key: SigningKey) -> String {
        var header = header
        if header["alg"] != nil {
            header["alg"] = .string(key.algorithm.rawValue)
        } else {
            header = JSONObject([("alg", .string(key.algorithm.rawValue))] + header.members.map { ($0.key, $0.value) })
        }
        let signingInput = Base64URL.encode(JSONWriter().bytes(.object(header))) + "." + Base64URL.encode(payload)
        let signature: [UInt8]
        switch key {
        case .p256(let key): signature = key.signature(for: signingInput.utf8).rawRepresentation
        case .hmac(let key): signature = key.authenticate(signingInput.utf8)
        case .rsa(let key, let hash): signature = key.signature(for: signingInput.utf8, hash: hash)
        case .rsaPSS(let key): signature = key.pssSignature(for: signingInput.utf8)
        }
        return signingInput + "." + Base64URL.encode(signature)
    }
}
