import AuthBridgeCore

/// A device-binding key pair the phone's app made for a user when a DeviceBindingCallback asked
/// (what forgerock-ios-sdk `FRDeviceBinding` keeps as a `UserKey` beside its keychain key): a
/// P-256 key, the key id it sent, the user the server named and the authentication type that
/// guards the key. It signs as the iOS SDK does (`DeviceBindingAuthenticators.swift`): ES256,
/// header `kid` and `typ: JWS` (and, when binding, the public key as a JWK), claims `sub`,
/// `challenge`, `exp`, `iat`, `nbf`, `iss` (and, when binding, `platform: ios`).
public struct BindingKey: PhoneRecord {
    public static let stateKey = "bindingKeys"
    /// The application id the emulated app signs as (`iss`): what a node's `applicationIds` must
    /// list, as a real tenant lists the app's bundle id.
    public static let applicationId = "com.example.reactnative.todo"

    /// The key id (`kid`): a uuid, which the server keeps as the device's uuid.
    public var id: String
    /// The user the server named: its universal id (`sub` of every JWS), and its name.
    public var userId: String
    public var username: String
    /// `BIOMETRIC_ONLY`, `BIOMETRIC_ALLOW_FALLBACK`, `APPLICATION_PIN` or `NONE`.
    public var authenticationType: String
    public var createdAt: Double
    /// The private scalar. Saved with the phone in `--state-dir`, never shown.
    private var privateKey: [UInt8]

    public init(
        id: String, userId: String, username: String, authenticationType: String, createdAt: Double,
        key: P256.PrivateKey
    ) {
        self.id = id
        self.userId = userId
        self.username = username
        self.authenticationType = authenticationType
        self.createdAt = createdAt
        self.privateKey = key.rawRepresentation
    }

    /// Whether using the key asks the user first (a biometric or PIN prompt).
    public var isGuarded: Bool { authenticationType != "NONE" }

    /// The public key as a JWK (RFC 7517, RFC 7518 §6.2), as the binding JWS carries it, with the
    /// `use` and `alg` the iOS SDK adds.
    public var publicJWK: JSONObject {
        guard let key = try? P256.PrivateKey(rawRepresentation: privateKey) else { return [:] }
        var json = JWK(key: .p256(key.publicKey), keyID: id).json
        json["use"] = "sig"
        json["alg"] = "ES256"
        return json
    }

    /// A compact JWS of `claims` with this key (ES256, RFC 7515 §7.1). Binding puts the public
    /// key in the header.
    public func jws(claims: JSONObject, embeddingKey: Bool) -> String {
        var header: JSONObject = ["kid": .string(id), "typ": "JWS"]
        if embeddingKey { header["jwk"] = .object(publicJWK) }
        guard let key = try? P256.PrivateKey(rawRepresentation: privateKey) else { return "" }
        return JWS.sign(payload: JSONWriter().bytes(.object(claims)), header: header, key: .p256(key))
    }

    /// The claims of a JWS over `challenge`, signed at `now` and good for `timeout` seconds.
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
        [
            "id": .string(id), "userId": .string(userId), "username": .string(username),
            "authenticationType": .string(authenticationType), "createdAt": .double(createdAt),
            "privateKey": .string(Base64URL.encode(privateKey)),
        ]
    }

    public init(state reader: StateReader) throws(StateError) {
        id = try reader.string("id")
        userId = try reader.string("userId")
        username = try reader.string("username")
        authenticationType = try reader.string("authenticationType")
        createdAt = try reader.time("createdAt")
        guard let raw = Base64URL.decode(try reader.string("privateKey")),
            (try? P256.PrivateKey(rawRepresentation: raw)) != nil
        else { throw StateError("\(reader.path).privateKey: not a P-256 private key in base64url") }
        privateKey = raw
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
