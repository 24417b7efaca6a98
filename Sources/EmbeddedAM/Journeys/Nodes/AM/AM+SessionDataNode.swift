import AuthBridgeCore

extension AM {
    /// AM's Get Session Data: copies a property of the caller's existing SSO session (the token
    /// it sent with the journey's first request) into shared state, and into `objectAttributes`.
    /// Known keys: `UserToken`/`Username` (the user's name), `UserId`, `AuthInstant`. No session:
    /// it goes on with nothing, as AM does.
    struct SessionDataNode: JourneyNode {
        static let type = NodeType(name: "SessionDataNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                SessionDataNode(
                    key: try s.requiredString("sessionDataKey"), sharedStateKey: try s.requiredString("sharedStateKey"))
            )
        }

        var key: String
        var sharedStateKey: String
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let token = context.ssoToken, let session = context.sessions.find(token) else {
                return .outcome("outcome")
            }
            let value: JSONValue
            switch key {
            case "UserToken", "Username": value = .string(session.username)
            case "UserId": value = .string(session.userId)
            case "AuthInstant": value = .string(ISO8601.formatMillis(session.authTime))
            default: return .outcome("outcome")
            }
            context.shared[sharedStateKey] = value
            context.shared.set(path: "objectAttributes." + sharedStateKey.replacingSlashes, to: value)
            if sharedStateKey == "userName" || sharedStateKey == "username" { context.shared["username"] = value }
            return .outcome("outcome")
        }
    }
}
