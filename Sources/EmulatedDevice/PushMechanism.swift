import AuthBridgeCore

/// A push registration, scanned from a pushauth:// URI: the shared secret and the endpoints to answer.
/// Only an id so far; what it holds is added with the nodes that use it.
public struct PushMechanism: PhoneRecord {
    public static let stateKey = "push"
    public var id: String

    public init(id: String) { self.id = id }

    public var stateJSON: JSONValue { ["id": .string(id)] }

    public init(state reader: StateReader) throws(StateError) { id = try reader.string("id") }

    public var summaryJSON: JSONObject { ["id": .string(id)] }
}
