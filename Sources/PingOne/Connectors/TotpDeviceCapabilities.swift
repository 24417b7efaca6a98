import AuthBridgeCore
import EmbeddedAM

/// PingOne MFA's TOTP (authenticator app) device as DaVinci flows register it. The device is kept
/// as the user's OATH device in the shared directory (`DirectoryUser.registerOath`, as AM's OATH
/// Registration node saves one: one per user, replacing an earlier one), so AM's OATH Token Verifier accepts the same app, and its
/// codes are checked by `OathVerifier` with AM's default window, drift and replay rules.
enum TotpDevices {
    static let verifier = OathVerifier()
    /// The issuer the `otpauth://` label and `issuer` parameter name.
    static let issuer = "PingOne"
    /// 160 bits, RFC 4226's recommended shared-secret length.
    static let secretLength = 20

    static func uri(secret: [UInt8], account: String) -> String {
        let issuer = OathDeviceProfile.labelEscaped(Self.issuer)
        return "otpauth://totp/\(issuer):\(OathDeviceProfile.labelEscaped(account))?secret=\(Base32.encode(secret))"
            + "&issuer=\(issuer)&algorithm=SHA1&digits=6&period=\(verifier.period)"
    }
}

/// `createDevice`: the device type a `DEVICE_REGISTRATION` field chose (`settings.device` names
/// the field, default `device`). `EMAIL` and `SMS` are the user's e-mail and phone on file, active
/// at once (`active`); `TOTP` makes a fresh secret, kept in the interaction until its first code
/// (`activationRequired`: the next form's `QR_CODE` field shows its URI).
struct CreateDevice: ConnectorCapability {
    let connectorId = "pingOneMfaConnector"
    let name = "createDevice"
    let outcomes = ["active", "activationRequired"]

    func run(_ step: inout ConnectorStep) -> ConnectorResult {
        guard let id = step.interaction.userId, let user = step.server.users.find(id: id) else {
            return .failed(code: "noUser", message: "The flow found no user to register a device for")
        }
        let field = step.field("device")
        let chosen = step.interaction.values[field]
        let type = (chosen?["type"]?.stringValue ?? chosen?.stringValue ?? "").uppercased()
        switch type {
        case "TOTP":
            let device = OathDeviceProfile(
                record: DeviceRecord(
                    uuid: step.random.uuid(), deviceName: "Authenticator App", createdDate: step.clock.now),
                sharedSecret: step.random.bytes(TotpDevices.secretLength))
            step.interaction.pendingDevice = PendingDevice(
                device: device, uri: TotpDevices.uri(secret: device.sharedSecret, account: user.username))
            return .outcome("activationRequired")
        case "EMAIL" where !(user.email ?? "").isEmpty,
            "SMS" where !(user.attributes["telephoneNumber"]?.stringValue ?? "").isEmpty:
            return .outcome("active")
        default:
            return step.error(
                "invalidValue", "The device type cannot be registered",
                details: [
                    ErrorDetail(
                        code: "INVALID_VALUE", target: field,
                        message: type.isEmpty ? "No device type was chosen" : "\(type) cannot be registered")
                ])
        }
    }
}

/// `activateDevice`: the form's `otp` (settings `otp` names another field) against the TOTP
/// device `createDevice` made. A good code saves it as the user's OATH device (`activated`); a
/// wrong one is 400 `INVALID_VALUE` with the attempts left; the third wrong one drops it
/// (`failed`).
struct ActivateDevice: ConnectorCapability {
    let connectorId = "pingOneMfaConnector"
    let name = "activateDevice"
    let outcomes = ["activated", "failed"]

    func run(_ step: inout ConnectorStep) -> ConnectorResult {
        let field = step.field("otp")
        guard let id = step.interaction.userId, var pending = step.interaction.pendingDevice else {
            return step.error(
                "invalidOtp", "No device is waiting for activation",
                details: [ErrorDetail(code: "INVALID_VALUE", target: field, message: "No device to activate")])
        }
        let now = Int64(step.clock.now.rounded(.down))
        guard TotpDevices.verifier.verify(step.value("otp") ?? "", device: &pending.device, now: now) else {
            pending.attempts += 1
            let remaining = CheckOneTimeCode.attempts - pending.attempts
            step.interaction.pendingDevice = remaining > 0 ? pending : nil
            return remaining > 0 ? step.wrongPasscode(field: field, remaining: remaining) : .outcome("failed")
        }
        var device = pending.device
        device.record.createdDate = step.clock.now
        device.record.lastAccessDate = step.clock.now
        step.interaction.pendingDevice = nil
        guard let user = step.server.users.find(id: id),
            step.server.users.update(username: user.username, { $0.registerOath(device) })
        else {
            return .failed(code: "noUser", message: "The flow's user is gone")
        }
        return .outcome("activated")
    }
}
