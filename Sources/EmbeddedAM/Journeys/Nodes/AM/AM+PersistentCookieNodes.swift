import AuthBridgeCore

extension AM {
    /// AM's Set Persistent Cookie and Persistent Cookie Decision. On AM the cookie is a signed
    /// JWT the browser sends back on a later journey; the bridge keeps no cookie jar between
    /// journeys, so here the cookie lives only as long as the journey that set it (transient
    /// state, shared with inner trees). The Decision is `true` (and sets `username`) only when a
    /// Set node with the same `persistentCookieName` ran earlier in the same journey; otherwise
    /// `false`, as AM answers a request without the cookie. Its `idleTimeout`/`maxLife` (hours)
    /// outlast any journey, so they are checked for type only; signing keys and cookie flags are
    /// read by AM only.
    struct SetPersistentCookieNode: JourneyNode {
        static let type = NodeType(name: "SetPersistentCookieNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            _ = try s.int("idleTimeout", default: 5, in: 1...8760)
            _ = try s.int("maxLife", default: 5, in: 1...8760)
            return .node(SetPersistentCookieNode(name: try s.string("persistentCookieName", default: "session-jwt")))
        }

        /// Where the cookies set in this journey are kept: name → {username, setAt}.
        static let key = "persistentCookies"

        var name: String
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            var cookies = context.transient[Self.key]?.objectValue ?? [:]
            cookies[name] = ["username": .string(context.username), "setAt": .double(context.clock.now)]
            context.transient[Self.key] = .object(cookies)
            return .outcome("outcome")
        }
    }

    struct PersistentCookieDecisionNode: JourneyNode {
        static let type = NodeType(name: "PersistentCookieDecisionNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(PersistentCookieDecisionNode(name: try s.string("persistentCookieName", default: "session-jwt")))
        }

        var name: String
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let cookie = context.transient[SetPersistentCookieNode.key]?[name],
                case .string(let username)? = cookie["username"], !username.isEmpty
            else { return .outcome("false") }
            context.shared["username"] = .string(username)
            return .outcome("true")
        }
    }
}
