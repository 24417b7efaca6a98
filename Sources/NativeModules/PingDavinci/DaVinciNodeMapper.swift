import AuthBridgeCore
import NativeSDK

/// A node as the DaVinci module resolves it to JS (`davinci/ios/Mapper/DaVinciNodeMapper.swift`,
/// `davinci/android/…/mapper/DaVinciNodeMapper.kt`): ContinueNode with its collectors (each with
/// the server's field as `raw`) and the fields no collector took, SuccessNode with the session's
/// value (the flow's authorization code), ErrorNode, FailureNode.
enum DaVinciNodeMapper {
    static func map(_ node: DavinciNode, platform: Platform) -> JSONValue {
        switch node {
        case .next(let form):
            var payload: JSONObject = [
                "type": "ContinueNode", "id": .string(form.id), "name": .string(form.name),
                "description": .string(form.description), "category": .string(form.category),
                "collectors": .array(form.collectors.compactMap { collector($0, platform: platform) }),
                "input": form.input,
            ]
            let unsupported = unsupportedFields(form, platform: platform)
            if !unsupported.isEmpty { payload["unsupportedFields"] = .array(unsupported) }
            return .object(payload)
        case .success(_, let code):
            return ["type": "SuccessNode", "session": ["value": .string(code)]]
        case .error(let status, let message, let input):
            // Android's ErrorNode has no status (`TODO-SDK-PARITY` in the Android mapper).
            var payload: JSONObject = ["type": "ErrorNode", "message": .string(message), "input": input]
            if platform == .ios { payload["status"] = .int(Int64(status)) }
            return .object(payload)
        case .failure(let failure):
            // iOS prints the cause's `localizedDescription`: PingDavinci's `ApiError` is a plain
            // Swift error, so it reads as Foundation's generic text, and the mapper adds its status.
            // Android's `ApiException` carries the body as its message.
            var payload: JSONObject = ["type": "FailureNode"]
            let message: String
            if platform == .ios, failure.status != nil {
                message = "The operation couldn’t be completed. (PingDavinci.ApiError error 0.)"
            } else {
                message = failure.content
            }
            payload["message"] = .string(message)
            payload["cause"] = .string(message)
            if platform == .ios, let status = failure.status { payload["status"] = .int(Int64(status)) }
            return .object(payload)
        }
    }

    /// Fields with a key and a type that no collector took (SOCIAL_LOGIN_BUTTON is always an
    /// IdP collector's; Android's QR collector has no key of its own, so a QR field counts as taken).
    private static func unsupportedFields(_ form: DavinciContinueNode, platform: Platform) -> [JSONValue] {
        let taken = Set(form.collectors.map(\.key))
        let hasQR = form.collectors.contains { $0.kind == .qrCode }
        return (form.input["form"]?["components"]?["fields"]?.arrayValue ?? []).compactMap { field in
            guard let key = field["key"]?.stringValue,
                let type = field["inputType"]?.stringValue ?? field["type"]?.stringValue,
                type != "SOCIAL_LOGIN_BUTTON", !taken.contains(key)
            else { return nil }
            if platform == .android, type == "QR_CODE", hasQR { return nil }
            return ["key": .string(key), "type": .string(type)]
        }
    }

    // MARK: collectors

    static func collector(_ collector: DavinciCollector, platform: Platform) -> JSONValue? {
        let field = collector.field
        var map: JSONObject
        switch collector.kind {
        case .idp:
            map = [
                "key": .string(collector.key), "type": "SOCIAL_LOGIN_BUTTON",
                "label": .string(field["label"]?.stringValue ?? ""), "idpId": .string(collector.key),
                "idpType": .string(field["idpType"]?.stringValue ?? ""),
                "idpEnabled": .bool(field["idpEnabled"]?.boolValue ?? true),
            ]
            if let link = field["links"]?["authenticate"]?["href"]?.stringValue { map["link"] = .string(link) }
        case .text:
            map = base(collector)
            map["value"] = collector.value
            if let regex = regex(field) { map["validation"] = ["regex": .string(regex)] }
        case .password:
            map = base(collector)
            map["value"] = ""
            map["clearPassword"] = true
            if let policy = DaVinciPasswordPolicy.map(field["passwordPolicy"], platform: platform) {
                map["passwordPolicy"] = policy
            }
        case .submit, .flow:
            map = base(collector)
        case .label:
            map = [
                "key": .string(collector.key), "type": "LABEL", "content": .string(field["content"]?.stringValue ?? ""),
            ]
        case .singleSelect:
            map = base(collector)
            map["value"] = collector.value
            map["options"] = options(field)
            if let regex = regex(field) { map["validation"] = ["regex": .string(regex)] }
        case .multiSelect:
            map = base(collector)
            map["value"] = collector.value
            map["options"] = options(field)
        case .phoneNumber:
            map = base(collector)
            map["defaultCountryCode"] = .string(field["defaultCountryCode"]?.stringValue ?? "")
            map["validatePhoneNumber"] = .bool(field["validatePhoneNumber"]?.boolValue ?? false)
            map["countryCode"] = collector.value["countryCode"] ?? ""
            map["phoneNumber"] = collector.value["phoneNumber"] ?? ""
        case .deviceRegistration, .deviceAuthentication:
            map = base(collector)
            map["devices"] = .array(devices(field))
        case .boolean:
            map = base(collector)
            map["value"] = collector.value
            map["appearance"] = .string(field["appearance"]?.stringValue ?? "")
            map["errorMessage"] = .string(field["errorMessage"]?.stringValue ?? "")
        case .readOnlyText:
            map = [
                "key": .string(collector.key), "type": "READ_ONLY_TEXT",
                "content": .string(field["content"]?.stringValue ?? ""),
                "title": .string(field["title"]?.stringValue ?? ""),
                "titleEnabled": .bool(field["titleEnabled"]?.boolValue ?? false),
                "enabled": .bool(field["enabled"]?.boolValue ?? true),
                "agreementId": .string(field["agreementId"]?.stringValue ?? ""),
                "useDynamicAgreement": .bool(field["useDynamicAgreement"]?.boolValue ?? false),
            ]
        case .polling:
            map = base(collector)
            map["pollInterval"] = .int(field["pollInterval"]?.intValue ?? 2000)
            map["pollRetries"] = .int(field["pollRetries"]?.intValue ?? 60)
            map["pollChallengeStatus"] = .bool(field["pollChallengeStatus"]?.boolValue ?? false)
            map["challenge"] = .string(field["challenge"]?.stringValue ?? "")
        case .qrCode:
            // Android 2.1.0's QR collector reads no key (`key: ""`, its mapper's TODO-SDK-PARITY).
            map = [
                "key": .string(platform == .android ? "" : collector.key), "type": "QR_CODE",
                "content": .string(field["content"]?.stringValue ?? ""),
                "fallbackText": .string(field["fallbackText"]?.stringValue ?? ""),
            ]
        case .protect:
            map = ["key": .string(collector.key), "type": "PROTECT"]
        }
        map["raw"] = .object(field)
        return .object(map)
    }

    /// `FieldCollector`'s `key`, `type` (the field's `type`, not its `inputType`), `label`, `required`.
    private static func base(_ collector: DavinciCollector) -> JSONObject {
        [
            "key": .string(collector.key), "type": .string(collector.field["type"]?.stringValue ?? ""),
            "label": .string(collector.field["label"]?.stringValue ?? ""),
            "required": .bool(collector.field["required"]?.boolValue ?? false),
        ]
    }

    private static func regex(_ field: JSONObject) -> String? {
        field["validation"]?["regex"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func options(_ field: JSONObject) -> JSONValue {
        .array(
            (field["options"]?.arrayValue ?? []).map {
                ["label": .string($0["label"]?.stringValue ?? ""), "value": .string($0["value"]?.stringValue ?? "")]
            })
    }

    private static func devices(_ field: JSONObject) -> [JSONValue] {
        (field["options"]?.arrayValue ?? []).map { device in
            var map: JSONObject = [:]
            if let id = device["id"]?.stringValue { map["id"] = .string(id) }
            map["type"] = .string(device["type"]?.stringValue ?? "")
            map["title"] = .string(device["title"]?.stringValue ?? "")
            if let description = device["description"]?.stringValue { map["description"] = .string(description) }
            map["iconSrc"] = .string(device["iconSrc"]?.stringValue ?? "")
            map["isDefault"] = .bool(device["default"]?.boolValue ?? false)
            return .object(map)
        }
    }
}
