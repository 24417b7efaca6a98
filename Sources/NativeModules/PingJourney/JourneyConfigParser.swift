import AuthBridgeCore
import NativeSDK

/// `configureJourney`'s flat config as the native parsers read it
/// (`journey/ios/Config/JourneyConfigParser.swift`, `journey/android/…/config/JourneyConfigParser.kt`).
struct JourneyConfig {
    var serverUrl: String
    var realm: String?
    /// nil when no OIDC field was given: the journey then never has a user.
    var oidc: PingOidcConfig?
    /// `RNPingStorage` handles, resolved by the factory after parsing (`oidcStorageId` counts as
    /// an OIDC field, so it comes with `oidc`).
    var sessionStorageId: String?
    var oidcStorageId: String?
}

enum JourneyConfigParser {
    /// The keys whose presence means "OIDC is configured" (the Android parser's `hasAnyOidcField`;
    /// `scopes` alone does not count).
    private static let oidcKeys = [
        "clientId", "discoveryEndpoint", "redirectUri", "openId", "acrValues", "signOutRedirectUri", "state", "nonce",
        "uiLocales", "refreshThreshold", "loginHint", "display", "prompt", "additionalParameters", "oidcStorageId",
    ]

    /// Reads as the native parsers cast (`as? String`): a value of another type is absent. The
    /// rejections are the SDKs' texts, so nothing here names a path.
    static func parse(_ config: JSONReader<JSONReadError>, platform: Platform) throws(BridgeError) -> JourneyConfig {
        // Both trim; iOS counts an empty string as absent (a string that is not one reads as absent too).
        func string(_ key: String) -> String? { config[key].asString?.trimmingSpaces.nonEmpty }
        guard let serverUrl = string("serverUrl") else {
            throw PingRejection.journey(.config, .argument, "Missing required parameter: serverUrl")
        }
        var result = JourneyConfig(
            serverUrl: serverUrl, realm: string("realm"), oidc: nil, sessionStorageId: string("sessionStorageId"),
            oidcStorageId: string("oidcStorageId"))
        let configured = oidcKeys.contains { key in
            switch config[key].value {
            case nil, .null?: return false
            case .string(let s)?: return !s.trimmingSpaces.isEmpty
            case .object(let o)? where key == "additionalParameters": return o.count > 0
            default: return true
            }
        }
        guard configured else { return result }
        let openId = config["openId"].asObject
        guard let clientId = string("clientId"), let redirectUri = string("redirectUri"),
            string("discoveryEndpoint") != nil || openId != nil
        else {
            throw PingRejection.journey(
                .config, .argument,
                "clientId, redirectUri, and either discoveryEndpoint or openId must all be provided when OIDC is configured"
            )
        }
        if let openId {
            for key in ["authorizationEndpoint", "tokenEndpoint", "userinfoEndpoint"]
            where openId[key]?.stringValue?.isEmpty ?? true {
                throw PingRejection.journey(
                    .config, .argument,
                    platform == .ios
                        ? "openId.authorizationEndpoint, openId.tokenEndpoint, and openId.userinfoEndpoint are required"
                        : "Missing required parameter: \(key)")
            }
        }
        // The iOS factory always runs discovery (`JourneyClientFactory.swift`); Android accepts openId alone.
        if platform == .ios, string("discoveryEndpoint") == nil {
            throw PingRejection.journey(
                .initialize, .argument,
                "Journey OIDC config is missing discoveryEndpoint. `openId` alone can no longer bypass discovery — provide discoveryEndpoint; openId will be applied as an override after discovery."
            )
        }
        let scopes = config["scopes"].asStrings ?? []
        result.oidc = PingOidcConfig(
            clientId: clientId, redirectUri: redirectUri, scopes: scopes,
            refreshThreshold: config["refreshThreshold"].asNumber ?? 0)
        return result
    }
}

extension String {
    /// Leading and trailing spaces, tabs and newlines removed (no Foundation here).
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }

    /// nil for "", as the native parsers count an empty value as absent.
    var nonEmpty: String? { isEmpty ? nil : self }
}
