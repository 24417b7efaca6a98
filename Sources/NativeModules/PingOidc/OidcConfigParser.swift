import AuthBridgeCore
import NativeSDK

/// `createClient`'s config as the native parsers read it (`oidc/ios/OidcConfigParser.swift`,
/// `oidc/android/…/OidcConfigParser.kt`). The creation is synchronous, so a bad config is a
/// thrown exception on the device (iOS `NSInvalidArgumentException`, Android
/// `IllegalArgumentException`), which RN turns into a JS throw; here it is a rejection whose code
/// names that exception. `storageSlot` resolves a `storageId` handle after the checks, as the
/// factory does once the parser is done.
enum OidcConfigParser {
    static func parse(
        _ config: JSONReader<JSONReadError>, platform: Platform, storageSlot: (String) throws(BridgeError) -> String
    ) throws(BridgeError) -> PingOidcConfig {
        func fail(_ reason: String) -> BridgeError {
            switch platform {
            case .ios:
                return .rejection(
                    code: "NSInvalidArgumentException", message: "Invalid OIDC client config: \(reason)", detail: nil)
            case .android: return .rejection(code: "IllegalArgumentException", message: reason, detail: nil)
            }
        }
        // As the native parsers cast: a value of another type is absent, and so is "".
        func string(_ key: String) -> String? { config[key].asString?.trimmingSpaces.nonEmpty }
        guard let clientId = string("clientId") else { throw fail("Missing required parameter: clientId") }
        guard let redirectUri = string("redirectUri") else { throw fail("Missing required parameter: redirectUri") }
        let scopes = config["scopes"].asStrings ?? []
        guard !scopes.isEmpty else { throw fail("Missing required parameter: scopes") }
        switch platform {
        case .ios where string("discoveryEndpoint") == nil:
            throw fail(
                "Missing discoveryEndpoint. `openId` alone can no longer bypass discovery — provide discoveryEndpoint; openId will be applied as an override after discovery."
            )
        case .android where string("discoveryEndpoint") == nil && config["openId"].asObject == nil:
            throw fail("Missing discoveryEndpoint or openId")
        default: break
        }
        return PingOidcConfig(
            clientId: clientId, redirectUri: redirectUri, scopes: scopes,
            refreshThreshold: config["refreshThreshold"].asNumber ?? 0,
            storageKey: try string("storageId").map(storageSlot) ?? PingStores.defaultKey)
    }
}
