import AuthBridgeCore

/// What AM's OATH nodes share: their config's enumerations (`OathAlgorithm`, `HashAlgorithm`,
/// `NumberOfDigits`, `UserAttributeToAccountNameMapping` in ForgeRock/am-external, auth-nodes)
/// and the registration URI's escaping.
enum OathSettings {
    static let algorithms = ["TOTP": false, "HOTP": true]
    static let hashAlgorithms: [String: OATH.Algorithm] = [
        "HMAC_SHA1": .sha1, "HMAC_SHA256": .sha256, "HMAC_SHA512": .sha512,
    ]
    static let digits: [String: OATH.Digits] = ["SIX_DIGITS": .six, "EIGHT_DIGITS": .eight]
    /// The user attribute each `accountName` choice reads; `_username` is none, so the username.
    static let accountAttributes = [
        "USERNAME": "_username", "COMMON_NAME": "cn", "EMAIL_ADDRESS": "mail", "EMPLOYEE_NUMBER": "employeeNumber",
        "GIVEN_NAME": "givenName", "LAST_NAME": "sn",
    ]
    /// AM's default of each enumeration, by key.
    static let defaults = [
        "algorithm": "TOTP", "totpHashAlgorithm": "HMAC_SHA1", "passwordLength": "SIX_DIGITS",
        "accountName": "USERNAME",
    ]

    static func choice<T>(_ s: inout Settings, _ key: String, _ values: [String: T]) throws(SettingsError) -> T {
        let name = try s.string(key, default: defaults[key] ?? "")
        guard let value = values[name] else {
            throw SettingsError(reason: "\"\(key)\" must be one of \(values.keys.sorted().joined(separator: ", "))")
        }
        return value
    }

    /// The first value of the attribute, or the username when it has none.
    static func accountName(of user: DirectoryUser, attribute: String) -> String {
        let value = user.attributes[attribute]
        let text = value?.stringValue ?? value?.arrayValue?.first?.stringValue ?? ""
        return text.isEmpty ? user.username : text
    }

    /// Percent-encoding as a URI fragment allows (Guava's `urlFragmentEscaper`, which AM uses):
    /// unreserved characters, sub-delimiters and `:@/?` stay, the rest is UTF-8 percent-encoded.
    static func fragmentEscaped(_ text: String) -> String {
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?".utf8)
        var out = ""
        for byte in text.utf8 {
            if safe.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

/// A device in the making, in shared state between the OATH nodes as AM keeps it there:
/// `oathDeviceProfile`, the base64 of AM's `OathDeviceSettings` JSON (secret in hex), and
/// `oathEnableRecoveryCode`.
enum OathSharedState {
    static let profileKey = "oathDeviceProfile"
    static let recoveryCodesKey = "oathEnableRecoveryCode"

    static func encode(_ device: OathDeviceProfile) -> String {
        let json: JSONValue = [
            "sharedSecret": .string(device.hexSecret), "deviceName": .string(device.deviceName),
            "lastLogin": .int(device.lastLogin), "counter": .int(Int64(device.counter)),
            "checksumDigit": .bool(device.checksumDigit), "truncationOffset": .int(Int64(device.truncationOffset)),
            "clockDriftSeconds": .int(device.clockDriftSeconds), "recoveryCodes": [], "uuid": .string(device.uuid),
        ]
        return Base64.encode(Array(JSONWriter.compact(json).utf8))
    }

    /// The device in shared state; nil when there is none or it cannot be read (as AM, which
    /// logs and goes on without it).
    static func device(_ shared: JSONObject) -> OathDeviceProfile? {
        guard let text = shared[profileKey]?.stringValue, let bytes = Base64.decode(text),
            case .object(let json)? = try? JSONParser.parse(bytes),
            let uuid = json["uuid"]?.stringValue, !uuid.isEmpty,
            let secret = hexBytes(json["sharedSecret"]?.stringValue ?? ""), !secret.isEmpty
        else { return nil }
        return OathDeviceProfile(
            record: DeviceRecord(
                uuid: uuid, deviceName: json["deviceName"]?.stringValue ?? OathDeviceProfile.defaultName,
                createdDate: 0),
            sharedSecret: secret, counter: Int(clamping: json["counter"]?.intValue ?? 0),
            lastLogin: json["lastLogin"]?.intValue ?? 0, clockDriftSeconds: json["clockDriftSeconds"]?.intValue ?? 0,
            checksumDigit: json["checksumDigit"]?.boolValue ?? false,
            truncationOffset: Int(clamping: json["truncationOffset"]?.intValue ?? -1))
    }

    /// Hex as AM reads a secret (`AbstractOathVerifier.getSharedSecret`): white space dropped,
    /// any case, an odd length padded with a leading 0; nil for anything else.
    static func hexBytes(_ text: String) -> [UInt8]? {
        var digits = Array(text.utf8.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })
        if digits.count % 2 != 0 { digits.insert(UInt8(ascii: "0"), at: 0) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
