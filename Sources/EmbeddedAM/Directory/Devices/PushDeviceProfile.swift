import AuthBridgeCore

/// A user's push device, as AM's `PushDeviceSettings` keeps it (ForgeRock/am-external,
/// auth-nodes `push/PushDeviceProfileHelper.java`): PushRegistrationNode makes it with a fresh
/// shared secret and saves it when the authenticator answers the registration, taking the
/// device's own fields (`deviceId`, its push token; `mechanismUid`; `communicationType`;
/// `deviceType`) from the answer; the push sender addresses the device by them.
public struct PushDeviceProfile: DeviceProfile {
    public static let kind = DeviceKind.push
    /// AM's default name for a push device.
    public static let defaultName = "Push Device"
    public var record: DeviceRecord
    /// The HMAC key shared with the authenticator, standard base64 (32 random bytes).
    public var sharedSecret: String
    public var issuer: String
    /// The authenticator's id for this registration (`u` in each notification).
    public var mechanismUid: String
    /// The phone's push token.
    public var deviceId: String
    /// Where notifications go: the SNS endpoint made for the token (an ARN in AM).
    public var communicationId: String
    /// `gcm` or `apns`.
    public var communicationType: String
    /// `android` or `ios`.
    public var deviceType: String
    /// The SHA-256 of each unused recovery code (`RecoveryCodes`), when the registration
    /// generated them: the Recovery Code Collector Decision node spends them.
    public var recoveryCodeDigests: [[UInt8]]

    public init(
        record: DeviceRecord, sharedSecret: String, issuer: String, mechanismUid: String, deviceId: String,
        communicationId: String, communicationType: String, deviceType: String, recoveryCodeDigests: [[UInt8]] = []
    ) {
        self.record = record
        self.sharedSecret = sharedSecret
        self.issuer = issuer
        self.mechanismUid = mechanismUid
        self.deviceId = deviceId
        self.communicationId = communicationId
        self.communicationType = communicationType
        self.deviceType = deviceType
        self.recoveryCodeDigests = recoveryCodeDigests
    }

    public var stateJSON: JSONValue {
        var json = record.stateJSON
        json["sharedSecret"] = .string(sharedSecret)
        json["issuer"] = .string(issuer)
        json["deviceMechanismUID"] = .string(mechanismUid)
        json["deviceId"] = .string(deviceId)
        json["communicationId"] = .string(communicationId)
        json["communicationType"] = .string(communicationType)
        json["deviceType"] = .string(deviceType)
        if !recoveryCodeDigests.isEmpty {
            json["recoveryCodes"] = .array(recoveryCodeDigests.map { .string(Base64URL.encode($0)) })
        }
        return .object(json)
    }

    public init(state reader: StateReader) throws(StateError) {
        record = try DeviceRecord(state: reader)
        sharedSecret = try reader.string("sharedSecret")
        guard Base64.decode(sharedSecret) != nil else {
            throw StateError("\(reader.path).sharedSecret: not standard base64")
        }
        issuer = try reader.string("issuer")
        mechanismUid = try reader.string("deviceMechanismUID")
        deviceId = try reader.string("deviceId")
        communicationId = try reader.string("communicationId")
        communicationType = try reader.string("communicationType")
        deviceType = try reader.string("deviceType")
        recoveryCodeDigests =
            try reader["recoveryCodes"].optionalElements()?.map { field throws(StateError) in
                let digest = try field.bytes()
                guard digest.count == SHA256.digestSize else {
                    throw StateError("\(reader.path).recoveryCodes: each is a SHA-256 digest (32 bytes)")
                }
                return digest
            } ?? []
    }

    /// AM's device REST form: no secret, no recovery code.
    public var restJSON: JSONObject { record.restJSON }
}
