import AuthBridgeCore

/// A device-binding key pair the phone's app made for a user when a DeviceBindingCallback asked
/// (what the SDKs keep as a `UserKey` beside the platform's key): the key, the key id it sent, the
/// user the server named, the authentication type that guards it, and the SDK that made it
/// (`BindingStyle`: P-256 on iOS, RSA on Android, and the JWS each signs). An `APPLICATION_PIN`
/// key also keeps a digest of its PIN, as the platform's key store only opens with it.
public struct BindingKey: PhoneRecord {
    public static let stateKey = "bindingKeys"
    /// The application id the emulated app signs as (`iss`): what a node's `applicationIds` must
    /// list, as a real tenant lists the app's bundle id.
    public static let applicationId = "com.example.reactnative.todo"

    /// The private half: a P-256 scalar, or RSA's two primes. Saved with the phone in
    /// `--state-dir`, never shown.
    enum Material: Equatable, Sendable {
        case p256([UInt8])
        case rsa(p: [UInt8], q: [UInt8])
    }

    /// The key id (`kid`): a uuid, which the server keeps as the device's uuid.
    public var id: String
    /// The user the server named: its universal id (`sub` of every JWS), and its name.
    public var userId: String
    public var username: String
    /// `BIOMETRIC_ONLY`, `BIOMETRIC_ALLOW_FALLBACK`, `APPLICATION_PIN` or `NONE`.
    public var authenticationType: String
    public var createdAt: Double
    public var style: BindingStyle
    /// The SDK's user-key storage that lists the key (`UserKeyStorageConfig`: a keychain account
    /// or a data store file); nil for the SDK's default one.
    public var storage: String?
    private var material: Material
    /// SHA-256 of the key id and the PIN the key was made with (`APPLICATION_PIN`).
    private var pinDigest: [UInt8]?

    public init(
        id: String, userId: String, username: String, authenticationType: String, createdAt: Double,
        key: P256.PrivateKey
    ) {
        self.init(
            id: id, userId: userId, username: username, authenticationType: authenticationType, createdAt: createdAt,
            style: .forgeRockIOS, material: .p256(key.rawRepresentation))
    }

    init(
        id: String, userId: String, username: String, authenticationType: String, createdAt: Double,
        style: BindingStyle, material: Material, pin: String? = nil, storage: String? = nil
    ) {
        self.storage = storage
        self.id = id
        self.userId = userId
        self.username = username
        self.authenticationType = authenticationType
        self.createdAt = createdAt
        self.style = style
        self.material = material
        pinDigest = pin.map { Self.digest(pin: $0, keyId: id) }
    }

    /// A new key of the style's kind drawn from `random`.
    static func make(
        style: BindingStyle, userId: String, username: String, authenticationType: String, now: Double,
        random: RandomSource, pin: String?, storage: String?
    ) -> BindingKey {
        let id = style.newKeyId(random)
        let material: Material =
            if style.usesRSA {
                {
                    let key = RSA.PrivateKey.generate(random: random)
                    return .rsa(p: key.p, q: key.q)
                }()
            } else {
                .p256(P256.PrivateKey(generatingWith: random).rawRepresentation)
            }
        return BindingKey(
            id: id, userId: userId, username: username, authenticationType: authenticationType, createdAt: now,
            style: style, material: material, pin: pin, storage: storage)
    }

    private static func digest(pin: String, keyId: String) -> [UInt8] {
        SHA256.hash(Array((keyId + "\u{0}" + pin).utf8))
    }

    /// Whether `pin` opens the key: the PIN it was made with (a key made without one opens with
    /// any, as the emulated user always knows it).
    func opens(pin: String) -> Bool {
        guard let pinDigest else { return true }
        return ConstantTime.equal(Self.digest(pin: pin, keyId: id), pinDigest)
    }

    /// Whether using the key asks the user first (a biometric or PIN prompt).
    public var isGuarded: Bool { authenticationType != "NONE" }

    /// The id the SDK's key list shows (`UserKey.id`): ping-android's is the key alias, the
    /// base64url SHA-256 of the user id (`CryptoKey.kt` `keyAlias`); the others' is the key id.
    public var listedId: String {
        style == .pingAndroid ? Base64URL.encode(SHA256.hash(Array(userId.utf8))) : id
    }

    private var signingKey: JWS.SigningKey? {
        switch material {
        case .p256(let raw): return (try? P256.PrivateKey(rawRepresentation: raw)).map { .p256($0) }
        case .rsa(let p, let q): return (try? RSA.PrivateKey(p: p, q: q)).map { .rsa($0, .sha256) }
        }
    }

    /// The public key as a JWK (RFC 7517, RFC 7518 §6), as the binding JWS carries it, with the
    /// `use` and `alg` the SDKs add (`alg`: the algorithm the key signs with).
    public var publicJWK: JSONObject { publicJWK(algorithm: style.usesRSA ? "RS512" : "ES256") }

    func publicJWK(algorithm: String) -> JSONObject {
        var json: JSONObject
        switch signingKey {
        case .p256(let key)?: json = JWK(key: .p256(key.publicKey), keyID: id).json
        case .rsa(let key, _)?: json = JWK(key: .rsa(key.publicKey), keyID: id).json
        default: return [:]
        }
        json["use"] = "sig"
        json["alg"] = .string(algorithm)
        return json
    }

    /// A compact JWS of `claims` with this key (RFC 7515 §7.1), ES256 on P-256 and RS256 or RS512
    /// (`hash`) on RSA. `embeddingKey` puts the public key in the header; `typed` adds `typ: JWS`.
    func jws(claims: JSONObject, embeddingKey: Bool, typed: Bool, hash: RSA.Hash = .sha512) -> String {
        guard var key = signingKey else { return "" }
        if case .rsa(let rsa, _) = key { key = .rsa(rsa, hash) }
        var header: JSONObject = typed ? ["kid": .string(id), "typ": "JWS"] : ["kid": .string(id)]
        if embeddingKey { header["jwk"] = .object(publicJWK(algorithm: key.algorithm.rawValue)) }
        return JWS.sign(payload: JSONWriter().bytes(.object(claims)), header: header, key: key)
    }

    /// The old SDK's JWS (`BindingStyle.forgeRockIOS`).
    public func jws(claims: JSONObject, embeddingKey: Bool) -> String {
        jws(claims: claims, embeddingKey: embeddingKey, typed: true)
    }

    /// The claims of the old SDK's JWS over `challenge`, signed at `now` and good for `timeout`
    /// seconds.
    public func claims(challenge: String, now: Double, timeout: Int, binding: Bool) -> JSONObject {
        let seconds = Int64(now.rounded(.down))
        var claims: JSONObject = [
            "sub": .string(userId), "challenge": .string(challenge), "exp": .int(seconds + Int64(timeout)),
            "iat": .int(seconds), "nbf": .int(seconds),
        ]
        if binding { claims["platform"] = "ios" }
        claims["iss"] = .string(Self.applicationId)
        return claims
    }

    public var stateJSON: JSONValue {
        var json: JSONObject = [
            "id": .string(id), "userId": .string(userId), "username": .string(username),
            "authenticationType": .string(authenticationType), "createdAt": .double(createdAt),
        ]
        switch material {
        case .p256(let raw): json["privateKey"] = .string(Base64URL.encode(raw))
        case .rsa(let p, let q):
            json["rsa"] = ["p": .string(Base64URL.encode(p)), "q": .string(Base64URL.encode(q))]
        }
        if style != .forgeRockIOS { json["style"] = .string(style.rawValue) }
        if let storage { json["storage"] = .string(storage) }
        if let pinDigest { json["pinDigest"] = .string(Base64URL.encode(pinDigest)) }
        return .object(json)
    }

    public init(state reader: StateReader) throws(StateError) {
        id = try reader.string("id")
        userId = try reader.string("userId")
        username = try reader.string("username")
        authenticationType = try reader.string("authenticationType")
        createdAt = try reader.time("createdAt")
        let styleName = try reader.optionalString("style") ?? BindingStyle.forgeRockIOS.rawValue
        guard let style = BindingStyle(rawValue: styleName) else {
            throw StateError("\(reader.path).style: not a binding style (\(styleName))")
        }
        self.style = style
        storage = try reader.optionalString("storage")
        if let rsa = try reader["rsa"].optionalReader() {
            guard let p = Base64URL.decode(try rsa.string("p")), let q = Base64URL.decode(try rsa.string("q")),
                (try? RSA.PrivateKey(p: p, q: q)) != nil
            else { throw StateError("\(reader.path).rsa: not an RSA key's primes in base64url") }
            material = .rsa(p: p, q: q)
        } else {
            guard let raw = Base64URL.decode(try reader.string("privateKey")),
                (try? P256.PrivateKey(rawRepresentation: raw)) != nil
            else { throw StateError("\(reader.path).privateKey: not a P-256 private key in base64url") }
            material = .p256(raw)
        }
        if let text = try reader.optionalString("pinDigest") {
            guard let digest = Base64URL.decode(text), digest.count == SHA256.digestSize else {
                throw StateError("\(reader.path).pinDigest: not a SHA-256 digest in base64url")
            }
            pinDigest = digest
        } else {
            pinDigest = nil
        }
    }

    /// What a test sees: the key id, user, type, date and the public key; never the private one.
    public var summaryJSON: JSONObject {
        [
            "id": .string(id), "userId": .string(userId), "username": .string(username),
            "authenticationType": .string(authenticationType), "createdAt": .double(createdAt),
            "publicKey": .object(publicJWK),
        ]
    }
}
