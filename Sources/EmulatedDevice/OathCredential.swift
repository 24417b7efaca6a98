import AuthBridgeCore

/// An authenticator app's OATH credential, scanned from an otpauth:// URI.
/// Only an id so far; what it holds is added with the nodes that use it.
public struct OathCredential: PhoneRecord {
    public static let stateKey = "oath"
    public var id: String

    public init(id: String) { self.id = id }

    public var stateJSON: JSONValue { ["id": .string(id)] }

    public init(state reader: StateReader) throws(StateError) { id = try reader.string("id") }

    public var summaryJSON: JSONObject { ["id": .string(id)] }
}
