import AuthBridgeCore

extension AM {
    /// AM's Create Object: creates the managed user from `objectAttributes` (shared and
    /// transient: the password and KBA answers live there), with the accepted terms (a social
    /// account, one with an `aliasList`, may come without a password). `CREATED`
    /// (the journey's `username` is then the new user), or `FAILURE` when a required field is
    /// missing or the name is taken.
    struct CreateObjectNode: JourneyNode {
        static let type = NodeType(name: "CreateObjectNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            _ = try s.string("identityResource")
            return .node(CreateObjectNode())
        }
        .journeyFile(
            JourneyFileSyntax(name: "createObject", outcomeNames: ["CREATED": "created", "FAILURE": "failed"]) {
                (_: inout Settings) throws(SettingsError) in
                [CreateObjectNode()]
            })

        var outcomes: [String] { ["CREATED", "FAILURE"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            var attributes = AMIdentity.objectAttributes(context)
            let username =
                JourneyValues.text(attributes["userName"]).isEmpty
                ? context.username : JourneyValues.text(attributes["userName"])
            var password =
                JourneyValues.text(attributes["password"]).isEmpty
                ? context.password : JourneyValues.text(attributes["password"])
            // IDM creates a social account (one with linked identities) without a password; the
            // directory holds a random one no one knows, so it signs in only through its provider.
            if password.isEmpty, attributes["aliasList"]?.arrayValue?.isEmpty == false {
                password = Base64URL.encode(context.random.bytes(32))
            }
            attributes["userName"] = nil
            attributes["password"] = nil
            if case .array(let answers)? = attributes["kbaInfo"] {
                attributes["kbaInfo"] = .array(answers.map { KbaAnswers.hashed($0, random: context.random) })
            }
            if let terms = context.shared["termsAccepted"] { attributes["termsAccepted"] = terms }
            do {
                try context.users.add(username: username, password: password, attributes: attributes)
            } catch {
                context.failureReason =
                    switch error {
                    case .emptyUsername:
                        JourneyFailure.Reason(
                            "missing_attribute", "no userName to create the user with", ["attribute": "userName"])
                    case .emptyPassword:
                        JourneyFailure.Reason(
                            "missing_attribute", "no password to create \(username) with", ["attribute": "password"])
                    case .duplicate:
                        JourneyFailure.Reason("user_exists", "a user \(username) exists already")
                    }
                return .outcome("FAILURE")
            }
            context.shared["username"] = .string(username)
            return .outcome("CREATED")
        }
    }
}
