import AuthBridgeCore
import Testing

/// Compact JWS: RFC 7515 Appendix A.2 (RS256) and A.3 (ES256) verify with their published keys
/// (A.1, HS256, is in CryptoVectorTests through JWT); `none`, algorithm/key confusion and
/// malformed tokens are refused with typed errors; JWKs read and write RFC 7517's examples.
@Suite struct JWSTests {
    static let a2Token =
        "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"
    /// RFC 7517 §A.1's RSA public key, as JSON.
    static let a2JWK =
        #"{"kty":"RSA","n":"ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ","e":"AQAB","alg":"RS256","kid":"2011-04-29"}"#
    static let a3Token =
        "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
    /// RFC 7515 §A.3.1's P-256 key (its private `d` is ignored by a public JWK).
    static let a3JWK =
        #"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}"#
    static let payload = #"{"iss":"joe",\#r\#n "exp":1300819380,\#r\#n "http://example.com/is_root":true}"#

    static func jwk(_ text: String) throws -> JWK {
        guard case .object(let object) = try JSONParser.parse(text) else { throw JWK.Error.missingMember("kty") }
        return try JWK(json: object)
    }

    @Test func rfc7515AppendixA2RS256() throws {
        let jwk = try Self.jwk(Self.a2JWK)
        #expect(jwk.keyID == "2011-04-29")
        let verified = try JWS.verify(Self.a2Token, allowed: [.rs256], key: JWS.VerificationKey(jwk.key))
        #expect(verified.algorithm == .rs256)
        #expect(verified.payload == Array(Self.payload.utf8))
        #expect(verified.header == ["alg": "RS256"])
    }

    @Test func rfc7515AppendixA3ES256() throws {
        let jwk = try Self.jwk(Self.a3JWK)
        let verified = try JWS.verify(Self.a3Token, allowed: [.es256, .rs256], key: JWS.VerificationKey(jwk.key))
        #expect(verified.algorithm == .es256)
        #expect(verified.payload == Array(Self.payload.utf8))
        var tampered = Array(Self.a3Token.utf8)
        tampered[tampered.count - 2] = UInt8(ascii: tampered[tampered.count - 2] == UInt8(ascii: "A") ? "B" : "A")
        #expect(throws: JWS.Error.badSignature) {
            try JWS.verify(
                String(decoding: tampered, as: UTF8.self), allowed: [.es256], key: JWS.VerificationKey(jwk.key))
        }
    }

    @Test func signES256IsDeterministicAndVerifies() throws {
        let key = P256.PrivateKey(generatingWith: SeededRandomSource(seed: 24))
        let payload = Array(#"{"challenge":"abc"}"#.utf8)
        let token = JWS.sign(payload: payload, header: ["typ": "JWT", "kid": "device-1"], key: .p256(key))
        #expect(token == JWS.sign(payload: payload, header: ["typ": "JWT", "kid": "device-1"], key: .p256(key)))
        let parsed = try JWS.parse(token)
        #expect(parsed.header == ["alg": "ES256", "typ": "JWT", "kid": "device-1"])
        #expect(parsed.header["kid"] == "device-1")
        let verified = try parsed.verify(allowed: [.es256], key: .p256(key.publicKey))
        #expect(verified.payload == payload)
        // An "alg" already in the header keeps its place and gets the key's algorithm.
        let hs = JWS.sign(payload: payload, header: ["typ": "JWT", "alg": "ES256"], key: .hmac(HMACSHA256.Key([1])))
        #expect(try JWS.parse(hs).header == ["typ": "JWT", "alg": "HS256"])
    }

    @Test func unsecuredTokensAreRefused() throws {
        // RFC 7515 §A.5's unsecured JWS, and the same with a signature appended.
        let none =
            "eyJhbGciOiJub25lIn0.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ."
        let key = JWS.VerificationKey(try Self.jwk(Self.a3JWK).key)
        #expect(throws: JWS.Error.unsecured) { try JWS.verify(none, allowed: Set(JWS.Algorithm.allCases), key: key) }
        #expect(throws: JWS.Error.unsecured) { try JWS.verify(none + "AAAA", allowed: [.es256], key: key) }
        let hmac = JWS.VerificationKey.hmac(HMACSHA256.Key([]))
        #expect(throws: JWS.Error.unsecured) { try JWS.verify(none, allowed: [.hs256], key: hmac) }
    }

    /// The classic confusion: an HS256 token MACed with the RSA public key's bytes as the secret.
    @Test func algorithmKeyConfusionIsRefused() throws {
        let rsa = try Self.jwk(Self.a2JWK).key
        guard case .rsa(let rsaKey) = rsa else { throw JWK.Error.unsupportedKeyType("") }
        let forged = JWS.sign(payload: [1], key: .hmac(HMACSHA256.Key(rsaKey.modulusBytes)))
        #expect(throws: JWS.Error.algorithmNotAllowed("HS256")) {
            try JWS.verify(forged, allowed: [.rs256], key: JWS.VerificationKey(rsa))
        }
        #expect(throws: JWS.Error.keyMismatch(algorithm: .hs256, key: .rsa)) {
            try JWS.verify(forged, allowed: [.rs256, .hs256], key: JWS.VerificationKey(rsa))
        }
        // An RS256 token given an HMAC key, an ES256 token an RSA key.
        #expect(throws: JWS.Error.keyMismatch(algorithm: .rs256, key: .hmac)) {
            try JWS.verify(Self.a2Token, allowed: [.rs256], key: .hmac(HMACSHA256.Key(rsaKey.modulusBytes)))
        }
        #expect(throws: JWS.Error.keyMismatch(algorithm: .es256, key: .rsa)) {
            try JWS.verify(Self.a3Token, allowed: [.es256], key: JWS.VerificationKey(rsa))
        }
        #expect(throws: JWS.Error.algorithmNotAllowed("ES256")) {
            try JWS.verify(Self.a3Token, allowed: [], key: JWS.VerificationKey(rsa))
        }
    }

    /// RS512 (the Android SDK's device-binding algorithm) is one more algorithm of RSA keys only,
    /// and only when the caller allows it.
    @Test func rs512IsAnRSAAlgorithmTheCallerMustAllow() throws {
        let rsa = try Self.jwk(Self.a2JWK).key
        let token = "eyJhbGciOiJSUzUxMiJ9" + Self.a2Token.drop { $0 != "." }
        #expect(throws: JWS.Error.algorithmNotAllowed("RS512")) {
            try JWS.verify(token, allowed: [.rs256, .es256], key: JWS.VerificationKey(rsa))
        }
        #expect(throws: JWS.Error.keyMismatch(algorithm: .rs512, key: .p256)) {
            try JWS.verify(token, allowed: [.rs512], key: JWS.VerificationKey(try Self.jwk(Self.a3JWK).key))
        }
        // A2's RS256 signature relabelled RS512: the SHA-512 encoding does not match.
        #expect(throws: JWS.Error.badSignature) {
            try JWS.verify(token, allowed: [.rs512], key: JWS.VerificationKey(rsa))
        }
    }

    @Test func malformedTokensAreRefused() throws {
        let key = JWS.VerificationKey.hmac(HMACSHA256.Key([7]))
        let header = Base64URL.encode(Array(#"{"alg":"HS256"}"#.utf8))
        for token in ["", "a.b", "a.b.c.d", "\(header).$$.", "\(header).e30.a", "e30=.e30."] {
            #expect(throws: JWS.Error.malformed(.serialization)) { try JWS.verify(token, allowed: [.hs256], key: key) }
        }
        for headerJSON in [#"[1]"#, #"{"alg":1}"#, #"{}"#, #"{"alg":"HS256","alg":"none"}"#, "{"] {
            let token = Base64URL.encode(Array(headerJSON.utf8)) + ".e30."
            #expect(throws: JWS.Error.malformed(.header)) { try JWS.verify(token, allowed: [.hs256], key: key) }
        }
        // A JWT's claims must be an object.
        let array = JWS.sign(payload: Array("[1]".utf8), key: .hmac(HMACSHA256.Key([7])))
        #expect(throws: JWS.Error.malformed(.payload)) { try JWT.verify(array, key: [7]) }
        let crit = JWS.sign(payload: [], header: ["crit": ["b64"], "b64": false], key: .hmac(HMACSHA256.Key([7])))
        #expect(throws: JWS.Error.unsupportedCritical) { try JWS.verify(crit, allowed: [.hs256], key: key) }
        // An ES256 signature of the wrong size (DER instead of raw r ‖ s).
        let es = P256.PrivateKey(generatingWith: SeededRandomSource(seed: 1))
        let der =
            JWS.sign(payload: [], key: .p256(es)).split(separator: ".").prefix(2).joined(separator: ".")
            + "." + Base64URL.encode(es.signature(for: [1]).derRepresentation)
        #expect(throws: JWS.Error.malformed(.signature)) {
            try JWS.verify(der, allowed: [.es256], key: .p256(es.publicKey))
        }
    }

    @Test func jwksRoundTrip() throws {
        for text in [Self.a2JWK, Self.a3JWK] {
            let jwk = try Self.jwk(text)
            let again = try JWK(json: jwk.json)
            #expect(again == jwk)
            #expect(again.json == jwk.json)
            #expect(jwk.json["d"] == nil)
        }
        let ec = try Self.jwk(Self.a3JWK)
        #expect(
            ec.json == [
                "kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
                "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
            ])
        #expect(JWK(key: ec.key, keyID: "k1").json["kid"] == "k1")
    }

    @Test func badJWKsAreRefused() {
        let x = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
        let y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
        let offCurve = "y_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
        let cases: [(JSONObject, JWK.Error)] = [
            ([:], .missingMember("kty")),
            (["kty": "oct", "k": "AA"], .unsupportedKeyType("oct")),
            (["kty": "EC", "crv": "P-384", "x": .string(x), "y": .string(y)], .unsupportedCurve("P-384")),
            (["kty": "EC", "crv": "P-256", "x": .string(x)], .missingMember("y")),
            (["kty": "EC", "crv": "P-256", "x": "f83O+J3D2", "y": .string(y)], .invalidMember("x")),
            (["kty": "EC", "crv": "P-256", "x": "AQ", "y": .string(y)], .invalidMember("x")),
            (["kty": "EC", "crv": "P-256", "x": .string(x), "y": .string(offCurve)], .invalidP256Key(.notOnCurve)),
            (["kty": "RSA", "n": "AQAB", "e": "AQAB"], .invalidRSAKey(.unsupportedModulusSize(bits: 17))),
            (["kty": "RSA", "n": 5, "e": "AQAB"], .missingMember("n")),
        ]
        for (json, error) in cases {
            #expect(throws: error) { try JWK(json: json) }
        }
    }
}
