import AuthBridgeCore

/// A device-binding key pair made for a user by a DeviceBindingNode step.
/// Only an id so far; what it holds is added with the nodes that use it.
public struct BindingKey: PhoneRecord {
    public static let stateKey = "bindingKeys"
    public var id: String

    public init(id: String) { self.id = id }

    public var stateJSON: JSONValue { ["id": .string(id)] }

    public init(state reader: StateReader) throws(StateError) { id = try reader.string("id") }

    public var summaryJSON: JSONObject { ["id": .string(id)] }
}
