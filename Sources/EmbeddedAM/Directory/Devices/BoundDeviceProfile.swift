import AuthBridgeCore

/// A user's bound device: DeviceBindingNode saves its public key, DeviceSigningVerifierNode verifies against it.
/// Only what every kind has so far; the kind's own members (keys, secrets, counters) are added
/// with its nodes.
public struct BoundDeviceProfile: DeviceProfile {
    public static let kind = DeviceKind.binding
    public var record: DeviceRecord

    public init(record: DeviceRecord) { self.record = record }

    public var stateJSON: JSONValue { .object(record.stateJSON) }

    public init(state reader: StateReader) throws(StateError) { record = try DeviceRecord(state: reader) }

    public var restJSON: JSONObject { record.restJSON }
}
