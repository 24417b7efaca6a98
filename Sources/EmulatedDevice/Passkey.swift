import AuthBridgeCore

/// A WebAuthn credential the phone's platform authenticator made for a relying party: a P-256
/// key pair (ES256), discoverable (it keeps the user handle and name), with a signature counter
/// that every assertion moves on.
public struct Passkey: PhoneRecord {
    public static let stateKey = "passkeys"
    /// The credential id, base64url (what `credential.id` is in a browser).
    public var id: String
    public var rpId: String
    /// The user handle the relying party gave (`user.id`), base64url of its bytes.
    public var userHandle: String
    public var userName: String
    /// The private scalar: saved with the phone, never shown.
    var privateKey: [UInt8]
    public var signCount: UInt32

    init(id: String, rpId: String, userHandle: String, userName: String, privateKey: [UInt8], signCount: UInt32) {
        self.id = id
        self.rpId = rpId
        self.userHandle = userHandle
        self.userName = userName
        self.privateKey = privateKey
        self.signCount = signCount
    }

    public var stateJSON: JSONValue {
        [
            "id": .string(id), "rpId": .string(rpId), "userHandle": .string(userHandle),
            "userName": .string(userName), "privateKey": .string(Base64URL.encode(privateKey)),
            "signCount": .int(Int64(signCount)),
        ]
    }

    public init(state reader: StateReader) throws(StateError) {
        id = try reader.string("id")
        rpId = try reader.string("rpId")
        userHandle = try reader.string("userHandle")
        userName = try reader.string("userName")
        guard let key = Base64URL.decode(try reader.string("privateKey")),
            (try? P256.PrivateKey(rawRepresentation: key)) != nil
        else { throw StateError("\(reader.path).privateKey: not a P-256 private key") }
        privateKey = key
        let count = try reader.int("signCount")
        guard let signCount = UInt32(exactly: count) else {
            throw StateError("\(reader.path).signCount: \(count) is not a 32-bit counter")
        }
        self.signCount = signCount
    }

    /// What a test sees: no private key.
    public var summaryJSON: JSONObject {
        [
            "id": .string(id), "rpId": .string(rpId), "userHandle": .string(userHandle),
            "userName": .string(userName), "signCount": .int(Int64(signCount)),
        ]
    }

    var key: P256.PrivateKey? { try? P256.PrivateKey(rawRepresentation: privateKey) }
}
