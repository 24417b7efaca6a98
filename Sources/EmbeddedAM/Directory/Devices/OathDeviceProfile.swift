import AuthBridgeCore

/// A user's OATH (authenticator app) device: OathRegistrationNode saves it, OathTokenVerifierNode reads and updates it.
/// Only what every kind has so far; the kind's own members (keys, secrets, counters) are added
/// with its nodes.
public struct OathDeviceProfile: DeviceProfile {
    public static let kind = DeviceKind.oath
    public var record: DeviceRecord

    public init(record: DeviceRecord) { self.record = record }

    public var stateJSON: JSONValue { .object(record.stateJSON) }

    public init(state reader: StateReader) throws(StateError) { record = try DeviceRecord(state: reader) }

    public var restJSON: JSONObject { record.restJSON }
}
