import AuthBridgeCore

extension AM {
    /// AM's Identify Existing User: looks the user up by `objectAttributes.<identityAttribute>`
    /// (the journey's `username` for `userName`); found, it sets `username`, `_id` and
    /// `objectAttributes.<identifier>` and goes `true`, else `false`.
    struct IdentifyExistingUserNode: JourneyNode {
        static let type = NodeType(name: "IdentifyExistingUserNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                IdentifyExistingUserNode(
                    identifier: try s.string("identifier", default: "userName"),
                    identityAttribute: try s.string("identityAttribute", default: "mail")))
        }

        var identifier: String
        var identityAttribute: String
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let user = AMIdentity.user(context, attribute: identityAttribute) else {
                context.failureReason = JourneyFailure.Reason(
                    "no_account", "no user matches the journey's \(identityAttribute)",
                    ["attribute": .string(identityAttribute)])
                return .outcome("false")
            }
            context.shared["username"] = .string(user.username)
            context.shared["_id"] = .string(user.id)
            let value: JSONValue =
                identifier == "userName"
                ? .string(user.username) : user.attributes.value(path: identifier.replacingSlashes) ?? .null
            context.shared.set(path: "objectAttributes." + identifier.replacingSlashes, to: value)
            return .outcome("true")
        }
    }
}
