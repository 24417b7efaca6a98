import AuthBridgeCore
import NativeSDK

/// `next`'s input applied to the current form (`davinci/ios/Collector/DaVinciCollectorValueApplier.swift`,
/// `davinci/android/…/collector/DaVinciCollectorValueApplier.kt`): `input.collectors` is a list of
/// `{key, value}`, each finding the collector with that key (the last one, when keys repeat).
/// Values are converted by the collector's class. Errors: iOS rejects a bad input or value with
/// `DAVINCI_NEXT_ERROR`, Android with `DAVINCI_COLLECTOR_APPLY_ERROR`, both argument_error; a
/// collector that takes no value rejects `DAVINCI_UNSUPPORTED_COLLECTOR_ERROR` on both. Values
/// set before a failure stay set.
struct DaVinciCollectorValueApplier {
    struct Mutation {
        var key: String
        var value: JSONValue?
    }

    let platform: Platform

    private func argument(_ message: String) -> BridgeError {
        PingRejection.davinci(platform == .ios ? .next : .collectorApply, .argument, message)
    }

    func parse(_ input: JSONObject) throws(BridgeError) -> [Mutation] {
        guard case .array(let entries)? = input["collectors"] else { return [] }
        var mutations: [Mutation] = []
        for (index, item) in entries.enumerated() {
            guard case .object(let entry) = item else { throw argument("Invalid collector entry at index \(index)") }
            // iOS refuses an empty key here; Android looks it up (and finds nothing).
            guard let key = entry["key"]?.stringValue, platform == .android || !key.isEmpty else {
                throw argument("Missing 'key' in collector entry at index \(index)")
            }
            let value = entry["value"].flatMap { $0 == .null ? nil : $0 }
            mutations.append(Mutation(key: key, value: value))
        }
        return mutations
    }

    func apply(_ mutations: [Mutation], to node: inout DavinciContinueNode) throws(BridgeError) {
        for mutation in mutations {
            guard let index = node.collectors.lastIndex(where: { $0.key == mutation.key }) else {
                throw argument("No active collector found for key='\(mutation.key)'")
            }
            try apply(mutation.value, to: &node.collectors[index])
        }
    }

    private func apply(_ value: JSONValue?, to collector: inout DavinciCollector) throws(BridgeError) {
        let key = collector.key
        switch collector.kind {
        case .multiSelect:
            collector.value = .array(try strings(value, key: key).map { .string($0) })
        case .phoneNumber:
            let map = stringMap(value)
            var phone = collector.value.objectValue ?? [:]
            if let country = map["countryCode"] { phone["countryCode"] = .string(country) }
            if let number = map["phoneNumber"] { phone["phoneNumber"] = .string(number) }
            collector.value = .object(phone)
        case .deviceRegistration, .deviceAuthentication:
            let name =
                collector.kind == .deviceRegistration ? "DeviceRegistrationCollector" : "DeviceAuthenticationCollector"
            let map = stringMap(value)
            guard let type = map["type"] else { throw argument("\(name) key='\(key)': value map must include 'type'") }
            if let device = (collector.field["options"]?.arrayValue ?? []).first(where: {
                $0["type"]?.stringValue == type
            }) {
                collector.value = device
            } else if collector.kind == .deviceRegistration {
                throw argument("\(name) key='\(key)': no device found with type='\(type)'")
            } else {
                // An unknown type is taken as a device built from the map.
                var device: JSONObject = [:]
                if let id = map["id"] { device["id"] = .string(id) }
                device["type"] = .string(type)
                device["title"] = .string(map["title"] ?? type)
                if let description = map["description"] { device["description"] = .string(description) }
                device["iconSrc"] = .string(map["iconSrc"] ?? (platform == .ios ? "about:blank" : ""))
                device["default"] = false
                collector.value = .object(device)
            }
        case .boolean:
            collector.value = .bool(try boolean(value, key: key))
        case .text, .password, .submit, .flow, .singleSelect, .polling:
            collector.value = .string(try string(value, key: key))
        case .label, .readOnlyText, .qrCode, .idp, .protect:
            throw PingRejection.davinci(
                .unsupportedCollector, .argument,
                "Collector key='\(key)' type=\(Self.className[collector.kind] ?? "Collector") is not supported by the bridge"
            )
        }
    }

    private static let className: [DavinciCollector.Kind: String] = [
        .label: "LabelCollector", .readOnlyText: "ReadOnlyTextCollector", .qrCode: "QRCodeCollector",
        .idp: "IdpCollector", .protect: "ProtectCollector",
    ]

    /// A string, a number (`42`, `4.5`) or a boolean (`true`) as text.
    private func string(_ value: JSONValue?, key: String) throws(BridgeError) -> String {
        switch value {
        case .string(let s)?: return s
        case .int(let i)?: return String(i)
        case .double(let d)?: return d.rounded() == d && abs(d) < 9.0e15 ? String(Int64(d)) : String(d)
        case .bool(let b)?: return b ? "true" : "false"
        default:
            throw argument(
                platform == .ios
                    ? "Collector key='\(key)' expects a string-compatible value"
                    : "\(key) expects a string-compatible value, got: \(Self.javaClass(value))")
        }
    }

    /// iOS also takes a number (non-zero is true); both read a string as `true` only when it says so.
    private func boolean(_ value: JSONValue?, key: String) throws(BridgeError) -> Bool {
        switch value {
        case .bool(let b)?: return b
        case .string(let s)?: return s.lowercased() == "true"
        case .int(let i)? where platform == .ios: return i != 0
        case .double(let d)? where platform == .ios: return Int64(exactly: d.rounded(.towardZero)) != 0
        default:
            throw argument(
                platform == .ios
                    ? "Collector key='\(key)' expects a boolean value"
                    : "\(key) expects a boolean value, got: \(Self.javaClass(value))")
        }
    }

    /// iOS refuses an element that is not a string; Android drops it.
    private func strings(_ value: JSONValue?, key: String) throws(BridgeError) -> [String] {
        guard case .array(let items)? = value else {
            throw argument(
                platform == .ios
                    ? "Collector key='\(key)' expects an array of strings" : "\(key) expects an array of strings")
        }
        var result: [String] = []
        for item in items {
            if let s = item.stringValue {
                result.append(s)
            } else if platform == .ios {
                throw argument("Collector key='\(key)' expects an array of strings, got \(Self.foundationClass(item))")
            }
        }
        return result
    }

    /// The object's string and number members as text; anything else is an empty map.
    private func stringMap(_ value: JSONValue?) -> [String: String] {
        guard case .object(let object)? = value else { return [:] }
        var map: [String: String] = [:]
        for member in object.members {
            switch member.value {
            case .string(let s): map[member.key] = s
            case .int(let i): map[member.key] = String(i)
            case .double(let d): map[member.key] = String(d)
            case .bool(let b) where platform == .android: map[member.key] = String(b)
            default: break
            }
        }
        return map
    }

    /// The Java class a bridged value arrives as on Android (`readDynamicValue`).
    private static func javaClass(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: return "null"
        case .string?: return "String"
        case .bool?: return "Boolean"
        case .int?: return "Long"
        case .double(let d)?: return d.rounded() == d ? "Long" : "Double"
        case .object?: return "HashMap"
        case .array?: return "ArrayList"
        }
    }

    /// The Foundation class a bridged value arrives as on iOS.
    private static func foundationClass(_ value: JSONValue) -> String {
        switch value {
        case .null: return "NSNull"
        case .bool: return "__NSCFBoolean"
        case .int, .double: return "__NSCFNumber"
        case .string: return "String"
        case .object: return "__NSDictionaryI"
        case .array: return "__NSArrayI"
        }
    }
}
