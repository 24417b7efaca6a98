import AuthBridgeCore

/// One field of a DaVinci form as the native SDK's collector holds it (ping-ios
/// `Davinci/Davinci/collector/*.swift`, ping-android `davinci/…/collector/*.kt`): the server's
/// field JSON, the collector class the SDK's registry chose for it, and the value the app set.
public struct DavinciCollector: Equatable, Sendable {
    /// The collector classes of the native SDKs (and of the packages that register their own:
    /// `external-idp`'s `IdpCollector`, `protect`'s `ProtectCollector`).
    public enum Kind: String, Equatable, Sendable {
        case text, password, submit, flow, label, singleSelect, multiSelect, phoneNumber
        case deviceRegistration, deviceAuthentication, boolean, readOnlyText, polling, qrCode, idp, protect
    }

    public let kind: Kind
    /// Whose SDK holds it (a few payloads differ).
    let platform: Platform
    /// The server's field (`form.components.fields[i]`), as received.
    public let field: JSONObject
    /// What the app set: a string (text, password, select, buttons, polling, Protect's signals),
    /// the strings of a multi select, `{countryCode, phoneNumber}`, the chosen device's JSON, or
    /// a boolean.
    public var value: JSONValue
    /// A polling collector's polls left (`retriesAllowed`, from `pollRetries`).
    var pollsLeft = 0
    /// An IdP collector's resume request once its provider signed in, which `next` sends instead
    /// of the form's request (`DavinciRequest`).
    public var resumeRequest: DavinciRequest?

    /// The collector's id: the field's `key` (an IdP button's `idpId`).
    public var key: String {
        kind == .idp ? (field["idpId"]?.stringValue ?? "") : (field["key"]?.stringValue ?? "")
    }

    /// The collector class each field type makes (`Davinci.swift` / `CollectorRegistry.kt`). The
    /// registry is looked up by the field's `inputType`, then by its `type`.
    static func registry(_ platform: Platform) -> [String: Kind] {
        var kinds: [String: Kind] = [
            "TEXT": .text, "PASSWORD": .password, "PASSWORD_VERIFY": .password, "SUBMIT_BUTTON": .submit,
            "ACTION": .flow, "LABEL": .label, "SINGLE_SELECT": .singleSelect, "MULTI_SELECT": .multiSelect,
            "BOOLEAN": .boolean, "DEVICE_REGISTRATION": .deviceRegistration,
            "DEVICE_AUTHENTICATION": .deviceAuthentication, "PHONE_NUMBER": .phoneNumber,
            "READ_ONLY_TEXT": .readOnlyText, "POLLING": .polling, "QR_CODE": .qrCode,
            // Registered by the linked packages (`PingExternalIdP`, `PingProtect`), as on a device.
            "SOCIAL_LOGIN_BUTTON": .idp, "PROTECT": .protect,
        ]
        if platform == .ios {
            // iOS also registers the display types (aliases; payloads carry `inputType` anyway).
            for type in ["FLOW_BUTTON", "FLOW_LINK"] { kinds[type] = .flow }
            for type in ["DROPDOWN", "RADIO"] { kinds[type] = .singleSelect }
            for type in ["COMBOBOX", "CHECKBOX"] { kinds[type] = .multiSelect }
        }
        return kinds
    }

    /// The field as a collector, nil when the registry has no class for it (the SDK drops it).
    init?(field json: JSONValue, platform: Platform) {
        guard case .object(let field) = json else { return nil }
        let registry = Self.registry(platform)
        guard
            let kind = field["inputType"]?.stringValue.flatMap({ registry[$0] })
                ?? field["type"]?.stringValue.flatMap({ registry[$0] })
        else { return nil }
        self.kind = kind
        self.platform = platform
        self.field = field
        pollsLeft = Int(field["pollRetries"]?.intValue ?? 60)
        switch kind {
        case .multiSelect: value = .array([])
        case .phoneNumber: value = ["countryCode": "", "phoneNumber": ""]
        case .boolean: value = .bool(field["value"]?.boolValue ?? false)
        case .deviceRegistration, .deviceAuthentication, .label, .readOnlyText, .qrCode, .idp:
            value = .null
        // `ProtectCollector` starts with "" and takes no initial value.
        case .protect: value = ""
        default: value = .string(field["value"]?.stringValue ?? "")
        }
    }

    /// `initialize(with:)`: a value from the answer's `formData.value` for this key.
    mutating func initialize(with initial: JSONValue) {
        switch kind {
        case .multiSelect:
            if case .array(let items) = initial, !items.isEmpty, case .array(let current) = value {
                value = .array(current + items.filter { $0.stringValue != nil })
            }
        case .phoneNumber:
            if case .object(let object) = initial {
                value = [
                    "countryCode": .string(object["countryCode"]?.stringValue ?? ""),
                    "phoneNumber": .string(object["phoneNumber"]?.stringValue ?? ""),
                ]
            } else if case .string(let number) = initial {
                value = ["countryCode": value["countryCode"] ?? "", "phoneNumber": .string(number)]
            }
        case .text, .password, .submit, .flow, .singleSelect, .polling:
            if case .string = initial { value = initial }
        default: break
        }
    }

    /// `payload()`: what goes into the continue request, nil when nothing was set.
    public var payload: JSONValue? {
        switch kind {
        case .text, .password, .submit, .flow, .singleSelect, .polling, .protect:
            guard let string = value.stringValue, !string.isEmpty else { return nil }
            return value
        case .multiSelect:
            guard case .array(let items) = value, !items.isEmpty else { return nil }
            return value
        case .phoneNumber:
            guard let country = value["countryCode"]?.stringValue, !country.isEmpty,
                let number = value["phoneNumber"]?.stringValue, !number.isEmpty
            else { return nil }
            return ["phoneNumber": .string(number), "countryCode": .string(country)]
        case .deviceRegistration: return value["type"]
        case .deviceAuthentication:
            // `{type, id, description}` of the chosen device (ping-ios `DeviceAuthenticationCollector.payload()`,
            // ping-android likewise): iOS leaves out what the device lacks; Android's `Device` has
            // `description` "" and `id` null by default.
            guard case .object(let device) = value else { return nil }
            var payload: JSONObject = ["type": device["type"] ?? ""]
            switch platform {
            case .ios:
                if let id = device["id"], id != .null { payload["id"] = id }
                if let description = device["description"], description != .null {
                    payload["description"] = description
                }
            case .android:
                payload["id"] = device["id"] ?? .null
                payload["description"] = device["description"].flatMap { $0 == .null ? nil : $0 } ?? ""
            }
            return .object(payload)
        case .boolean: return value
        case .label, .readOnlyText, .qrCode, .idp: return nil
        }
    }

    /// The event a submittable collector with a value sends (`Submittable.eventType()`).
    var eventType: String? {
        switch kind {
        case .submit, .deviceRegistration, .deviceAuthentication: return "submit"
        case .flow: return "action"
        case .polling: return "polling"
        default: return nil
        }
    }

    /// `close()` when the node is left: buttons, a chosen device and (with `clearPassword`) a
    /// password forget their value.
    mutating func close() {
        switch kind {
        case .password, .submit, .flow, .polling: value = ""
        case .deviceRegistration, .deviceAuthentication: value = .null
        default: break
        }
    }
}

extension [DavinciCollector] {
    /// The continue request's `parameters`: the first submittable collector with a value gives
    /// `eventType`; a button with a value gives `actionKey`; every other value goes into
    /// `formData` by key (`Collectors.asJson()` / `Collectors.kt`).
    var parameters: JSONValue {
        var data: JSONObject = [:]
        var formData: JSONObject = [:]
        for collector in self {
            switch collector.kind {
            case .submit, .flow: if collector.payload != nil { data["actionKey"] = .string(collector.key) }
            default: if let payload = collector.payload { formData[collector.key] = payload }
            }
        }
        data["formData"] = .object(formData)
        var parameters: JSONObject = [:]
        if let event = first(where: { $0.eventType != nil && $0.payload != nil })?.eventType {
            parameters["eventType"] = .string(event)
        }
        parameters["data"] = .object(data)
        return .object(parameters)
    }
}
