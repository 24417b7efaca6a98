import AuthBridgeCore
import EmbeddedAM

/// `DEVICE_REGISTRATION` (ping-ios-sdk `DeviceRegistrationCollector.swift`): the MFA methods a
/// user may register, `options[] = {type, title, description, iconSrc}`; the client sends back
/// the chosen `type`.
struct DeviceRegistrationCollector: CollectorType {
    let names = ["DEVICE_REGISTRATION"]
    let kind = CollectorKind.value

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] {
        guard let type = value?.stringValue else { return wrongType(key, wanted: "a device type") }
        let offered = (field["options"]?.arrayValue ?? []).compactMap { $0["type"]?.stringValue }
        guard offered.contains(type) else {
            return [ErrorDetail(code: "INVALID_VALUE", target: key, message: "\(type) is not offered")]
        }
        return []
    }
}

/// `DEVICE_AUTHENTICATION` (ping-ios-sdk `DeviceAuthenticationCollector.swift`, `Device.swift`):
/// the user's MFA devices, `options[] = {type, id, title, description, iconSrc, default}`; the
/// client sends back `{type, id, description}` of the one chosen. The options are the user's
/// e-mail and phone on file (the emulated one-time-code devices) and the user's authenticator
/// app (`TOTP`, id the directory OATH device's uuid), filled when the form is shown.
struct DeviceAuthenticationCollector: CollectorType {
    let names = ["DEVICE_AUTHENTICATION"]
    let kind = CollectorKind.value

    func render(_ field: JSONObject, for user: RenderContext) -> JSONObject {
        var devices: [JSONValue] = []
        if let email = user.email, !email.isEmpty {
            devices.append(Self.device(type: "EMAIL", id: "email", title: "Email", description: masked(email)))
        }
        if let phone = user.phone, !phone.isEmpty {
            devices.append(Self.device(type: "SMS", id: "sms", title: "Text Message", description: masked(phone)))
        }
        for oath in user.oathDevices {
            devices.append(
                Self.device(
                    type: "TOTP", id: oath.uuid, title: "Authenticator App", description: oath.deviceName,
                    icon: "totp"))
        }
        if case .object(var first) = devices.first {
            first["default"] = true
            devices[0] = .object(first)
        }
        var rendered = field
        rendered["options"] = .array(devices)
        return rendered
    }

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] {
        guard let id = value?["id"]?.stringValue ?? value?.stringValue else {
            return wrongType(key, wanted: "a device {type, id}")
        }
        let offered = (field["options"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        guard offered.contains(id) else {
            return [ErrorDetail(code: "INVALID_VALUE", target: key, message: "no device \(id)")]
        }
        return []
    }

    private static func device(
        type: String, id: String, title: String, description: String, icon: String? = nil
    ) -> JSONValue {
        [
            "type": .string(type), "id": .string(id), "title": .string(title), "description": .string(description),
            "iconSrc": .string("https://assets.pingone.com/ux/end-user/icons/\(icon ?? id).svg"), "default": false,
        ]
    }

    /// `d***@example.com`, `*******0100`: how PingOne shows a device's address.
    private func masked(_ text: String) -> String {
        if let at = text.firstIndex(of: "@") {
            return String(text[..<at].prefix(1)) + "***" + String(text[at...])
        }
        return String(repeating: "*", count: max(0, text.count - 4)) + String(text.suffix(4))
    }
}

/// `QR_CODE` (ping-javascript-sdk `packages/davinci-client/src/lib/collector.utils.ts`
/// `returnQrCodeCollector`, `davinci.types.ts` `QrCodeField`): shown only, `{key, content,
/// fallbackText}`. A field with no `content` of its own shows the TOTP device being registered:
/// `content` is the `otpauth://` URI the QR image encodes (AuthBridge draws no image; a scanner
/// reads this payload) and `fallbackText` the secret in base32, for typing in by hand.
struct QrCodeCollector: CollectorType {
    let names = ["QR_CODE"]
    let kind = CollectorKind.display

    func render(_ field: JSONObject, for user: RenderContext) -> JSONObject {
        guard field["content"] == nil, let pending = user.pendingDevice else { return field }
        var rendered = field
        rendered["content"] = .string(pending.uri)
        rendered["fallbackText"] = .string(Base32.encode(pending.device.sharedSecret))
        return rendered
    }

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] { [] }
}
