import AuthBridgeCore

/// A user's bound device, as AM's device-binding service keeps it (`DeviceBindingSettings`;
/// ForgeRock/am-external auth-nodes `DeviceBindingNode.java` saves it, `DeviceSigningVerifierNode.java`
/// verifies against it): the public key the device sent as a JWK in its binding JWS, the id the
/// device reported, and the name it gave. The device's uuid is the key's `kid`, as AM's REST
/// endpoint shows it (`_id`, `uuid` and `key.kid` alike), so a signing JWS finds its device by
/// the `kid` in its header. AM keeps no authentication type: that is the app's business.
public struct BoundDeviceProfile: DeviceProfile {
    public static let kind = DeviceKind.binding
    public var record: DeviceRecord
    /// What the device reported as its id (`IDToken1deviceId`).
    public var deviceId: String
    /// The public key as the device sent it, a JWK (RFC 7517): `kty`, `kid`, `use`, `alg` and the
    /// key's own members (`crv`, `x`, `y` or `n`, `e`). Public by nature, so the REST form shows it.
    public var key: JSONObject

    public init(record: DeviceRecord, deviceId: String, key: JSONObject) {
        self.record = record
        self.deviceId = deviceId
        self.key = key
    }

    /// The key's id: what a signing JWS names in its header.
    public var keyId: String { key["kid"]?.stringValue ?? record.uuid }

    public var stateJSON: JSONValue {
        var json = record.stateJSON
        json["deviceId"] = .string(deviceId)
        json["key"] = .object(key)
        return .object(json)
    }

    public init(state reader: StateReader) throws(StateError) {
        record = try DeviceRecord(state: reader)
        deviceId = try reader.string("deviceId")
        key = try reader["key"].object()
    }

    /// AM's form (`…/users/{user}/devices/2fa/binding`): the record, the device id and the key.
    public var restJSON: JSONObject {
        var json = record.restJSON
        json["deviceId"] = .string(deviceId)
        json["key"] = .object(key)
        json["deviceManagementStatus"] = false
        return json
    }
}
