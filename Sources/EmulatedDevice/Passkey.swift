import AuthBridgeCore

/// A WebAuthn credential (a P-256 key pair) made for a relying party.
/// Only an id so far; what it holds is added with the nodes that use it.
public struct Passkey: PhoneRecord {
    public static let stateKey = "passkeys"
    public var id: String

    public init(id: String) { self.id = id }

    public var stateJSON: JSONValue { ["id": .string(id)] }

    public init(state reader: StateReader) throws(StateError) { id = try reader.string("id") }

    public var summaryJSON: JSONObject { ["id": .string(id)] }
}
