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

    public func signed(key: [UInt8]) -> String {
        let signingInput = Base64URL.encode(JSONWriter().bytes(.object(header))) + "."
            + Base64URL.encode(JSONWriter().bytes(.object(claims)))
        return signingInput + "." + Base64URL.encode(HMACSHA256.authenticate(Array(signingInput.utf8), key: key))
    }

    /// Checks the signature and returns the token's parts. Expiry is the caller's business:
    /// what "expired" means depends on the caller's clock.
    public static func verify(_ token: String, key: [UInt8]) throws(VerificationError) -> JWT {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decode(String(parts[0])),
            let claimBytes = Base64URL.decode(String(parts[1])),
            let signature = Base64URL.decode(String(parts[2])),
            case .object(let header)? = try? JSONParser.parse(headerBytes),
            case .object(let claims)? = try? JSONParser.parse(claimBytes)
        else { throw .malformed }
        guard header["alg"] == "HS256" else { throw .unsupportedAlgorithm }
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        guard HMACSHA256.equal(HMACSHA256.authenticate(signingInput, key: key), signature) else {
            throw .badSignature
        }
        return JWT(header: header, claims: claims)
    }
}
