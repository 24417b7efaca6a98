import AuthBridgeCore
import NativeSDK

/// `configureDaVinci`'s flat config as the native parsers read it
/// (`davinci/ios/Config/DaVinciConfigParser.swift`, `davinci/android/…/config/DaVinciConfigParser.kt`),
/// before the factory resolves the storage handle.
struct DaVinciConfig {
    var client: PingDavinciConfig
    var storageId: String?
    var loggerId: String?
}

enum DaVinciConfigParser {
    /// The three required strings (`ReadableMapUtils.requireString` on both: absent, not a string
    /// or blank is `Missing required parameter: <key>`, argument_error). The optional strings:
    /// iOS trims them and counts "" as absent; Android takes them as given. The numbers: iOS
    /// takes a number or a numeric string and refuses another string; Android's `getDouble` fails
    /// on anything but a number (an internal error, as `mapThrowableToGenericError` reports it).
    static func parse(_ config: JSONReader<JSONReadError>, platform: Platform) throws(BridgeError) -> DaVinciConfig {
        func required(_ key: String) throws(BridgeError) -> String {
            guard let value = config[key].asString, !value.trimmingSpaces.isEmpty else {
                throw PingRejection.davinci(.config, .argument, "Missing required parameter: \(key)")
            }
            return value
        }
        let discoveryEndpoint = try required("discoveryEndpoint")
        let clientId = try required("clientId")
        let redirectUri = try required("redirectUri")
        func optional(_ key: String) -> String? {
            guard let value = config[key].asString else { return nil }
            return platform == .ios ? value.trimmingSpaces.nonEmpty : value
        }
        func number(_ key: String) throws(BridgeError) -> Double? {
            switch config[key].value {
            case nil, .null?: return nil
            case .int(let i)?: return Double(i)
            case .double(let d)?: return d
            case .string(let s)? where platform == .ios:
                guard let parsed = Int64(s.trimmingSpaces) else {
                    throw PingRejection.davinci(
                        .config, .argument, "Invalid value for '\(key)': expected a number, got \"\(s.trimmingSpaces)\""
                    )
                }
                return Double(parsed)
            case let other?:
                if platform == .ios { return nil }
                throw PingRejection.davinci(
                    .config, .internalError,
                    "Value for \(key) cannot be cast from \(Self.javaType(other)) to Double")
            }
        }
        _ = try number("timeout")
        let refreshThreshold = try number("refreshThreshold")
        var additional: [String: String] = [:]
        for member in config["additionalParameters"].asObject?.members ?? [] {
            if let value = member.value.stringValue { additional[member.key] = value }
        }
        let client = PingDavinciConfig(
            discoveryEndpoint: discoveryEndpoint, clientId: clientId, redirectUri: redirectUri,
            scopes: config["scopes"].asStrings ?? [], acrValues: optional("acrValues"), display: optional("display"),
            loginHint: optional("loginHint"), nonce: optional("nonce"), prompt: optional("prompt"),
            uiLocales: optional("uiLocales"), state: optional("state"), additionalParameters: additional,
            refreshThreshold: (refreshThreshold ?? 0).rounded(.towardZero))
        return DaVinciConfig(client: client, storageId: optional("storageId"), loggerId: optional("loggerId"))
    }

    /// The Java class a bridged JS value reads as (`ReadableType` on Android).
    private static func javaType(_ value: JSONValue) -> String {
        switch value {
        case .string: return "String"
        case .bool: return "Boolean"
        case .object: return "ReadableNativeMap"
        case .array: return "ReadableNativeArray"
        default: return "Double"
        }
    }
}
