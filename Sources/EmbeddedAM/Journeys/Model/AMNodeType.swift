import AuthBridgeCore

/// AM's own node types, as exports name them (`_type._id`). The types live in `Nodes/AM/`,
/// each in a file of its own, as `AM.<TypeName>`, so they never clash with the node types of
/// AuthBridge's journey JSON.
enum AM {
    /// AM's static end nodes: every tree shares these ids (am-nodes.md §1).
    static let successNodeId = "70e691a5-1e33-4ac3-a356-e7b6d60d92e0"
    static let failureNodeId = "e301438c-0bd0-429c-ab0c-66126501069a"
}

/// How an AM node type is built from its exported config. Configs carry much that AuthBridge
/// does not use (`_rev`, coordinates, settings of AM's own services), so unread keys are not
/// mistakes here, as they are in AuthBridge's JSON; a key of the wrong type still is.
struct AMNodeType: Sendable {
    var name: String
    /// Whether the node may stop to ask the client (a loop of nodes that never do is refused).
    var asksForInput = true
    var build: @Sendable (inout Settings, AMNodeSource) throws(SettingsError) -> AMBuilt
}

/// What a type builds: a node of the tree, or a collector, which stands alone as an
/// interactive node or sits inside a Page node.
enum AMBuilt {
    case node(any JourneyNode)
    case collector(any PageChild)
}

/// What a node's config may refer to beyond its own settings.
struct AMNodeSource {
    var tree: String
    var nodeId: String
    var displayName: String?
    /// The outcomes the export lists for the node (`_outcomes`), for nodes a scenario decides.
    var exportedOutcomes: [String]
    /// The name of a script the export carries, by id (nil when the export omits scripts).
    var scriptName: (String) -> String?
    /// Builds a Page node's child from its config in `innerNodes`.
    var child: (_ id: String, _ type: String) throws(SettingsError) -> any PageChild
    /// The enabled providers of the export's `socialIdentityProviders`, by name.
    var socialProviders: [AMSocialProvider]
    /// Whether node types AuthBridge does not know are let in as scenario-decided nodes.
    var unknownAsScenario: Bool
}

extension Settings {
    /// AM's localised text (`{"en": "Sign In"}`); nil when absent or empty.
    mutating func localized(_ key: String) throws(SettingsError) -> LocalizedText? {
        guard let value = raw(key) else { return nil }
        if case .string(let text) = value { return LocalizedText(entries: [("", text)]) }
        guard case .object(let map) = value else { throw SettingsError(reason: "\"\(key)\" must be an object of locale → text, got \(value.typeName)") }
        var entries: [(String, String)] = []
        for member in map.members {
            guard case .string(let text) = member.value else { throw SettingsError(reason: "\"\(key)\".\(member.key) must be a string") }
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

    var text: String {
        entries.first { $0.0 == Self.preferredLocale }?.1 ?? entries.first { $0.0.hasPrefix(Self.preferredLocale + "_") }?.1 ?? entries[0].1
    }
}

/// A social identity provider an export carries: its name and the `uiConfig` (button text,
/// image) AM's Select Identity Provider node sends with it.
struct AMSocialProvider: Sendable {
    var name: String
    var uiConfig: JSONValue
}
