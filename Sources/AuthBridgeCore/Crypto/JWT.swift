/// Compact JWS with HS256 (RFC 7515/7519): what the embedded server signs its tokens with.
public struct JWT: Sendable {
    public var header: JSONObject
    public var claims: JSONObject

    public enum VerificationError: Error, Equatable, Sendable {
        case malformed
        case badSignature
        case unsupportedAlgorithm
    }

    public init(header: JSONObject = ["typ": "JWT", "alg": "HS256"], claims: JSONObject) {
        self.header = header
        self.claims = claims
    }

    public func signed(key: [UInt8]) -> String { signed(with: HMACSHA256.Key(key)) }

    public func signed(with key: HMACSHA256.Key) -> String {
        let signingInput =
            Base64URL.encode(JSONWriter().bytes(.object(header))) + "."
            + Base64URL.encode(JSONWriter().bytes(.object(claims)))
        return signingInput + "." + Base64URL.encode(key.authenticate(signingInput.utf8))
    }

    /// Checks the signature and returns the token's parts. Expiry is the caller's business:
    /// what "expired" means depends on the caller's clock.
    public static func verify(_ token: String, key: [UInt8]) throws(VerificationError) -> JWT {
        try verify(token, with: HMACSHA256.Key(key))
    }

    public static func verify(_ token: String, with key: HMACSHA256.Key) throws(VerificationError) -> JWT {
        // Split on the bytes: splitting the String walks grapheme clusters, which cost most of
        // a userinfo call before (docs/performance.md).
        let bytes = Array(token.utf8)
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
            let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
            !bytes[(second + 1)...].contains(UInt8(ascii: ".")),
            let headerBytes = Base64URL.decode(bytes: bytes[..<first]),
            let claimBytes = Base64URL.decode(bytes: bytes[(first + 1)..<second]),
            let signature = Base64URL.decode(bytes: bytes[(second + 1)...]),
            case .object(let header)? = try? JSONParser.parse(headerBytes),
            case .object(let claims)? = try? JSONParser.parse(claimBytes)
        else { throw .malformed }
        guard header["alg"] == "HS256" else { throw .unsupportedAlgorithm }
        guard HMACSHA256.equal(key.authenticate(bytes[..<second]), signature) else {
            throw .badSignature
        }
        return JWT(header: header, claims: claims)
    }
}
