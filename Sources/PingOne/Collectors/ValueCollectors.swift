import AuthBridgeCore

/// `TEXT`: a string (ping-ios-sdk `TextCollector.swift`); `required` is checked here, a
/// `validation.regex` only by the client (the SDKs validate it before sending).
struct TextCollector: CollectorType {
    let names = ["TEXT"]
    let kind = CollectorKind.value

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] {
        if let value, value != .null, value.stringValue == nil { return wrongType(key, wanted: "a string") }
        return missing(value, field: field, key: key)
    }
}

/// `PASSWORD` and `PASSWORD_VERIFY` (ping-ios-sdk `PasswordCollector.swift`): a string. The
/// password policy is the connector's to check (PingOne's user service refuses a new password
/// that breaks it), so the answer names the unsatisfied requirements as PingOne does.
struct PasswordCollector: CollectorType {
    let names = ["PASSWORD", "PASSWORD_VERIFY"]
    let kind = CollectorKind.value

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] {
        if let value, value != .null, value.stringValue == nil { return wrongType(key, wanted: "a string") }
        return missing(value, field: field, key: key)
    }

    /// A new password's form carries PingOne's policy, for the client to check as it types.
    func extras(_ field: JSONObject) -> JSONObject {
        field["type"]?.stringValue == "PASSWORD_VERIFY" ? ["passwordPolicy": PasswordPolicy.standard.json] : [:]
    }
}

/// `DROPDOWN`, `RADIO` (`SINGLE_SELECT`): one of the field's `options[].value`.
struct SingleSelectCollector: CollectorType {
    let names = ["DROPDOWN", "RADIO", "SINGLE_SELECT"]
    let kind = CollectorKind.value
    let inputTypes = ["DROPDOWN": "SINGLE_SELECT", "RADIO": "SINGLE_SELECT"]

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] {
        guard let text = value?.stringValue, !text.isEmpty else {
            if let value, value != .null, value.stringValue == nil { return wrongType(key, wanted: "a string") }
            return missing(value, field: field, key: key)
        }
        guard optionValues(field).contains(text) else {
            return [ErrorDetail(code: "INVALID_VALUE", target: key, message: "\(text) is not one of the options")]
        }
        return []
    }
}

/// `COMBOBOX`, `CHECKBOX` (`MULTI_SELECT`): a list of the field's `options[].value`.
struct MultiSelectCollector: CollectorType {
    let names = ["COMBOBOX", "CHECKBOX", "MULTI_SELECT"]
    let kind = CollectorKind.value
    let inputTypes = ["COMBOBOX": "MULTI_SELECT", "CHECKBOX": "MULTI_SELECT"]

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] {
        guard let list = value?.arrayValue else {
            if let value, value != .null { return wrongType(key, wanted: "a list of strings") }
            return missing(value, field: field, key: key)
        }
        let known = optionValues(field)
        for item in list where !(item.stringValue.map(known.contains) ?? false) {
            return [ErrorDetail(code: "INVALID_VALUE", target: key, message: "\(item) is not one of the options")]
        }
        return missing(value, field: field, key: key)
    }
}

/// `PHONE_NUMBER` (ping-ios-sdk `PhoneNumberCollector.swift`): `{countryCode, phoneNumber}`.
struct PhoneNumberCollector: CollectorType {
    let names = ["PHONE_NUMBER"]
    let kind = CollectorKind.value

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] {
        guard let value, value != .null else { return missing(value, field: field, key: key) }
        guard let number = value["phoneNumber"]?.stringValue, value["countryCode"]?.stringValue != nil else {
            return wrongType(key, wanted: "{countryCode, phoneNumber}")
        }
        let digits = number.filter { $0 != " " && $0 != "-" }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) || field["validatePhoneNumber"]?.boolValue != true
        else {
            return [ErrorDetail(code: "INVALID_VALUE", target: key, message: "\(number) is not a phone number")]
        }
        return []
    }
}

/// `PROTECT`: what the Protect SDK collected, a string the Protect connector reads
/// (ping-javascript-sdk `collector.types.ts` `ProtectCollector`).
struct ProtectCollector: CollectorType {
    let names = ["PROTECT"]
    let kind = CollectorKind.value

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] {
        if let value, value != .null, value.stringValue == nil { return wrongType(key, wanted: "a string") }
        return []
    }
}

func optionValues(_ field: JSONObject) -> [String] {
    (field["options"]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
