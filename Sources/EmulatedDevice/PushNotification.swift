import AuthBridgeCore

/// A push notification delivered to the phone and not yet answered.
/// Only an id so far; what it holds is added with the nodes that use it.
public struct PushNotification: PhoneRecord {
    public static let stateKey = "notifications"
    public var id: String

    public init(id: String) { self.id = id }

    public var stateJSON: JSONValue { ["id": .string(id)] }

    public init(state reader: StateReader) throws(StateError) { id = try reader.string("id") }

    public var summaryJSON: JSONObject { ["id": .string(id)] }
}
