import AuthBridgeCore

/// A user's WebAuthn credential (a security key or passkey): WebAuthnRegistrationNode saves it, WebAuthnAuthenticationNode verifies against it.
/// Only what every kind has so far; the kind's own members (keys, secrets, counters) are added
/// with its nodes.
public struct WebAuthnDeviceProfile: DeviceProfile {
    public static let kind = DeviceKind.webauthn
    public var record: DeviceRecord

    public init(record: DeviceRecord) { self.record = record }

    public var stateJSON: JSONValue { .object(record.stateJSON) }

    public init(state reader: StateReader) throws(StateError) { record = try DeviceRecord(state: reader) }

    public var restJSON: JSONObject { record.restJSON }
}
