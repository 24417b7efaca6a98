import AuthBridgeCore

/// A user's OATH (authenticator app) device, with the members of AM's `OathDeviceSettings`:
/// OathRegistrationNode makes and saves it, OathTokenVerifierNode reads and updates it, the
/// Recovery Code Collector Decision node spends its recovery codes.
public struct OathDeviceProfile: DeviceProfile {
    public static let kind = DeviceKind.oath
    /// The name AM gives every OATH device it registers.
    public static let defaultName = "OATH Device"

    public var record: DeviceRecord
    /// The HMAC key the app and the server share (AM keeps it as hex; `hexSecret`).
    public var sharedSecret: [UInt8]
    /// HOTP: the next counter value the server accepts from (AM's `counter`).
    public var counter: Int
    /// TOTP: the start, in seconds, of the last time step a code was accepted for (AM's
    /// `lastLogin`): a code of that step or earlier in the window is refused.
    public var lastLogin: Int64
    /// TOTP: how far ahead (or behind) of the server's clock the app was at the last login, in
    /// seconds (AM's `clockDriftSeconds`, a whole number of time steps).
    public var clockDriftSeconds: Int64
    /// HOTP: AM's `checksumDigit` (the node's `addChecksum`).
    public var checksumDigit: Bool
    /// HOTP: AM's `truncationOffset`; -1 is dynamic truncation.
    public var truncationOffset: Int
    /// The SHA-256 of each unused recovery code. AM keeps the codes themselves in the device's
    /// JSON; here only their digests are kept, so a state directory holds none that would work.
    public var recoveryCodeDigests: [[UInt8]]

    public init(
        record: DeviceRecord, sharedSecret: [UInt8], counter: Int = 0, lastLogin: Int64 = 0,
        clockDriftSeconds: Int64 = 0, checksumDigit: Bool = false, truncationOffset: Int = -1,
        recoveryCodeDigests: [[UInt8]] = []
    ) {
        self.record = record
        self.sharedSecret = sharedSecret
        self.counter = counter
        self.lastLogin = lastLogin
        self.clockDriftSeconds = clockDriftSeconds
        self.checksumDigit = checksumDigit
        self.truncationOffset = truncationOffset
        self.recoveryCodeDigests = recoveryCodeDigests
    }

    /// The secret as AM keeps it: lowercase hex.
    public var hexSecret: String { sharedSecret.hexString }

    public var stateJSON: JSONValue {
        var json = record.stateJSON
        json["sharedSecret"] = .string(Base64URL.encode(sharedSecret))
        json["counter"] = .int(Int64(counter))
        json["lastLogin"] = .int(lastLogin)
        json["clockDriftSeconds"] = .int(clockDriftSeconds)
        json["checksumDigit"] = .bool(checksumDigit)
        json["truncationOffset"] = .int(Int64(truncationOffset))
        json["recoveryCodes"] = .array(recoveryCodeDigests.map { .string(Base64URL.encode($0)) })
        return .object(json)
    }

    public init(state reader: StateReader) throws(StateError) {
        record = try DeviceRecord(state: reader)
        sharedSecret = try reader.bytes("sharedSecret")
        guard !sharedSecret.isEmpty else { throw StateError("\(reader.path).sharedSecret: must not be empty") }
        counter = Int(clamping: try reader.int("counter"))
        lastLogin = try reader.int("lastLogin")
        clockDriftSeconds = try reader.int("clockDriftSeconds")
        checksumDigit = try reader.bool("checksumDigit")
        truncationOffset = Int(clamping: try reader.int("truncationOffset"))
        recoveryCodeDigests = []
        for entry in try reader["recoveryCodes"].elements() {
            let digest = try entry.bytes()
            guard digest.count == SHA256.digestSize else {
                throw StateError("\(entry.location): not the SHA-256 of a recovery code")
            }
            recoveryCodeDigests.append(digest)
        }
    }

    /// AM's device REST form: no secret, no recovery code.
    public var restJSON: JSONObject { record.restJSON }
}

extension OathDeviceProfile {
    /// An `otpauth://` label's issuer or account name, percent-encoded as AM's OATH Registration
    /// node encodes them; the PingOne face's TOTP registration writes its URI with it too.
    public static func labelEscaped(_ text: String) -> String { OathSettings.fragmentEscaped(text) }
}

extension DirectoryUser {
    /// Saves the user's OATH device as AM's OATH Registration node does: one per user (a new one
    /// replaces the old), and OATH no longer skippable for the user (`setUserToNotSkippable`).
    /// The PingOne face's TOTP activation saves its device the same way.
    public mutating func registerOath(_ device: OathDeviceProfile) {
        devices.oath = [device]
        MultiFactorSkip.set(.notSkippable, on: &self, .oath)
    }
}
