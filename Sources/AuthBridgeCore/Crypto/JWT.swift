/// A JWT (RFC 7519): a JWS whose payload is a JSON object of claims, here with HS256: the embedded
/// server's authIds and AM's push messages (its OAuth tokens are signed with its asymmetric keys,
/// `OAuthIssuer+Keys.swift`); `JWS` does the signing and checking.
public struct JWT: Sendable {
    public var header: JSONObject
    public var claims: JSONObject

    public init(header: JSONObject = ["typ": "JWT", "alg": "HS256"], claims: JSONObject) {
        self.header = header
        self.claims = claims
    }

    public func signed(key: [UInt8]) -> String { signed(with: HMACSHA256.Key(key)) }

    public func signed(with key: HMACSHA256.Key) -> String {
        JWS.sign(payload: JSONWriter().bytes(.object(claims)), header: header, key: .hmac(key))
    }

    /// Checks the HS256 signature and returns the token's parts; a payload that is not a JSON
    /// object is `.malformed(.payload)`. Expiry is the caller's business: what "expired"
    /// means depends on the caller's clock.
    public static func verify(_ token: String, key: [UInt8]) throws(JWS.Error) -> JWT {
        try verify(token, with: HMACSHA256.Key(key))
    }

    public static func verify(_ token: String, with key: HMACSHA256.Key) throws(JWS.Error) -> JWT {
        let verified = try JWS.verify(token, allowed: [.hs256], key: .hmac(key))
        guard case .object(let claims)? = try? JSONParser.parse(verified.payload) else {
            throw .malformed(.payload)
        }
        return JWT(header: verified.header, claims: claims)
    }
}
