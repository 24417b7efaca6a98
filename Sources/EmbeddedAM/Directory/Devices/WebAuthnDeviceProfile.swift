import AuthBridgeCore

/// A user's WebAuthn credential (a security key or passkey), as AM's `WebAuthnDeviceSettings`
/// keeps it in the user's `webauthnDeviceProfiles` attribute (ForgeRock/am-external,
/// releases/8.0.2: the WebAuthn nodes' `UserWebAuthnDeviceProfileManager.createDeviceProfile`):
/// the credential id, its public key as a JWK with the JCA algorithm name, the signature
/// counter, and the recovery codes the registration made. WebAuthnRegistrationNode saves it,
/// WebAuthnAuthenticationNode verifies against it and moves its counter.
public struct WebAuthnDeviceProfile: DeviceProfile {
    public static let kind = DeviceKind.webauthn
    public var record: DeviceRecord
    /// base64url, as the browser's `credential.id`: what an assertion names.
    public var credentialId: String
    public var key: COSEKey
    public var signCount: UInt32
    /// The authenticator's model (16 bytes; all zero for `none` attestation), lower-case hex.
    public var aaguid: String
    /// The SHA-256 of each unused recovery code (`RecoveryCodes`; saved, never shown by REST).
    public var recoveryCodeDigests: [[UInt8]]

    public init(
        record: DeviceRecord, credentialId: String, key: COSEKey, signCount: UInt32, aaguid: String = "",
        recoveryCodeDigests: [[UInt8]] = []
    ) {
        self.record = record
        self.credentialId = credentialId
        self.key = key
        self.signCount = signCount
        self.aaguid = aaguid
        self.recoveryCodeDigests = recoveryCodeDigests
    }

    public var stateJSON: JSONValue {
        var json = record.stateJSON
        json["credentialId"] = .string(credentialId)
        json["algorithm"] = .string(key.algorithm.javaName)
        json["key"] = .object(key.jwk)
        json["signCount"] = .int(Int64(signCount))
        json["aaguid"] = .string(aaguid)
        if !recoveryCodeDigests.isEmpty {
            json["recoveryCodes"] = .array(recoveryCodeDigests.map { .string(Base64URL.encode($0)) })
        }
        return .object(json)
    }

    public init(state reader: StateReader) throws(StateError) {
        record = try DeviceRecord(state: reader)
        credentialId = try reader.string("credentialId")
        guard let key = COSEKey(jwk: try reader["key"].object()) else {
            throw StateError("\(reader.path).key: not an EC P-256 or RSA public key JWK")
        }
        self.key = key
        guard try reader.string("algorithm") == key.algorithm.javaName else {
            throw StateError("\(reader.path).algorithm: not \(key.algorithm.javaName), the key's algorithm")
        }
        let count = try reader.int("signCount")
        guard let signCount = UInt32(exactly: count) else {
            throw StateError("\(reader.path).signCount: \(count) is not a 32-bit counter")
        }
        self.signCount = signCount
        aaguid = try reader.optionalString("aaguid") ?? ""
        recoveryCodeDigests = []
        for entry in try reader["recoveryCodes"].optionalElements() ?? [] {
            let digest = try entry.bytes()
            guard digest.count == SHA256.digestSize else {
                throw StateError("\(entry.location): not the SHA-256 of a recovery code")
            }
            recoveryCodeDigests.append(digest)
        }
    }

    /// AM's device REST form: no key, no recovery codes.
    public var restJSON: JSONObject {
        var json = record.restJSON
        json["credentialId"] = .string(credentialId)
        return json
    }
}

extension WebAuthnDeviceProfile {
    /// AM's attribute for WebAuthn devices, where saved state from before AuthBridge verified
    /// WebAuthn kept one record per registration.
    static let legacyAttribute = "webauthnDeviceProfiles"

    /// Moves records of the `webauthnDeviceProfiles` attribute into `devices.webAuthn` when they
    /// hold a credential as AM's `WebAuthnDeviceSettings` does (`credentialId`, `key` as a JWK,
    /// `signCount`, `uuid`, `deviceName`, `createdDate` in ms); the records AuthBridge used to write (a name and a
    /// date, no credential) could never verify an assertion and are dropped with the attribute.
    static func migrateLegacyAttribute(of user: inout DirectoryUser) {
        guard let records = user.attributes[legacyAttribute]?.arrayValue else { return }
        user.attributes[legacyAttribute] = nil
        for case .object(let record) in records {
            guard case .string(let credentialId)? = record["credentialId"], case .object(let jwk)? = record["key"],
                let key = COSEKey(jwk: jwk)
            else { continue }
            let uuid = record["uuid"]?.stringValue ?? credentialId
            guard !user.devices.webAuthn.contains(where: { $0.uuid == uuid }) else { continue }
            let count = record["signCount"]?.intValue.flatMap { UInt32(exactly: $0) } ?? 0
            user.devices.webAuthn.append(
                WebAuthnDeviceProfile(
                    record: DeviceRecord(
                        uuid: uuid, deviceName: record["deviceName"]?.stringValue ?? "New Security Key",
                        createdDate: Double(record["createdDate"]?.intValue ?? 0) / 1000),
                    credentialId: credentialId, key: key, signCount: count))
        }
    }
}
