/// A public key of a kind the bridge verifies signatures with: what a SubjectPublicKeyInfo, an
/// X.509 certificate or a JWK holds, and what WebAuthn and device binding store.
public enum PublicKey: Equatable, Sendable {
    case p256(P256.PublicKey)
    case rsa(RSA.PublicKey)
}

/// Public JSON Web Keys (RFC 7517 §4, RFC 7518 §6.2 and §6.3): EC P-256 (`kty` "EC", `crv`
/// "P-256", `x`, `y`) and RSA (`kty` "RSA", `n`, `e`), with an optional `kid`. Private members
/// (`d`, `p`, …) are ignored when read and never written; other members are ignored too.
public struct JWK: Equatable, Sendable {
    public enum Error: Swift.Error, Equatable, Sendable {
        /// A required member is absent or not a string.
        case missingMember(String)
        /// A member is not base64url or has the wrong size.
        case invalidMember(String)
        case unsupportedKeyType(String)
        case unsupportedCurve(String)
        case invalidP256Key(P256.KeyError)
        case invalidRSAKey(RSA.KeyError)
    }

    public var key: PublicKey
    public var keyID: String?

    public init(key: PublicKey, keyID: String? = nil) {
        self.key = key
        self.keyID = keyID
    }

    public init(json: JSONObject) throws(Error) {
        keyID = json["kid"]?.stringValue
        switch try Self.string(json, "kty") {
        case "EC":
            let curve = try Self.string(json, "crv")
            guard curve == "P-256" else { throw .unsupportedCurve(curve) }
            // RFC 7518 §6.2.1.2: coordinates are the full field size, 32 bytes for P-256.
            let x = try Self.bytes(json, "x")
            let y = try Self.bytes(json, "y")
            guard x.count == 32 else { throw .invalidMember("x") }
            guard y.count == 32 else { throw .invalidMember("y") }
            do { key = .p256(try P256.PublicKey(x: x, y: y)) } catch { throw .invalidP256Key(error) }
        case "RSA":
            let n = try Self.bytes(json, "n")
            let e = try Self.bytes(json, "e")
            do { key = .rsa(try RSA.PublicKey(modulus: n, exponent: e)) } catch { throw .invalidRSAKey(error) }
        case let other:
            throw .unsupportedKeyType(other)
        }
    }

    /// The JWK's JSON, members in the order of RFC 7517's examples: `kty`, the key's, then `kid`.
    public var json: JSONObject {
        var members: [(String, JSONValue)]
        switch key {
        case .p256(let key):
            members = [
                ("kty", "EC"), ("crv", "P-256"), ("x", .string(Base64URL.encode(key.xBytes))),
                ("y", .string(Base64URL.encode(key.yBytes))),
            ]
        case .rsa(let key):
            members = [
                ("kty", "RSA"), ("n", .string(Base64URL.encode(key.modulusBytes))),
                ("e", .string(Base64URL.encode(key.exponentBytes))),
            ]
        }
        if let keyID { members.append(("kid", .string(keyID))) }
        return JSONObject(members)
    }

    private static func string(_ json: JSONObject, _ name: String) throws(Error) -> String {
        guard let value = json[name]?.stringValue else { throw .missingMember(name) }
        return value
    }

    private static func bytes(_ json: JSONObject, _ name: String) throws(Error) -> [UInt8] {
        guard let bytes = Base64URL.decode(try string(json, name)) else { throw .invalidMember(name) }
        return bytes
    }
}
