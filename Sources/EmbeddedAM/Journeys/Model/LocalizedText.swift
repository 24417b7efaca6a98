import AuthBridgeCore

extension Settings {
    /// AM's localised text (`{"en": "Sign In"}`); nil when absent or empty.
    mutating func localized(_ key: String) throws(SettingsError) -> LocalizedText? {
        guard let value = raw(key) else { return nil }
        if case .string(let text) = value { return LocalizedText(entries: [("", text)]) }
        guard case .object(let map) = value else {
            throw SettingsError(reason: "\"\(key)\" must be an object of locale → text, got \(value.typeName)")
        }
        var entries: [(String, String)] = []
        for member in map.members {
            guard case .string(let text) = member.value else {
                throw SettingsError(reason: "\"\(key)\".\(member.key) must be a string")
            }
            entries.append((member.key, text))
        }
        return entries.isEmpty ? nil : LocalizedText(entries: entries)
    }
}

/// Text in several locales, resolved as AM's `getLocalisedMessage` does: the preferred locale,
/// else the first entry. Requests reaching the embedded server carry no locale, so the
/// preferred one is English, the platform's default.
struct LocalizedText: Sendable {
    var entries: [(String, String)]
    static let preferredLocale = "en"

    init(entries: [(String, String)]) { self.entries = entries }

    /// One text for every locale (AuthBridge's JSON).
    init(text: String) { entries = [("", text)] }

    var text: String {
        entries.first { $0.0 == Self.preferredLocale }?.1 ?? entries.first {
            $0.0.hasPrefix(Self.preferredLocale + "_")
        }?.1 ?? entries[0].1
    }
}

/// A social identity provider an export carries: its name and the `uiConfig` (button text,
/// image) AM's Select Identity Provider node sends with it, and its whole configuration (AM's
/// social identity provider service: client id, redirect URI, scopes, issuer, endpoints), which
/// the Social Provider Handler node reads.
struct AMSocialProvider: Sendable {
    var name: String
    var uiConfig: JSONValue
    var config: JSONObject = [:]
}
