import AuthBridgeCore

extension AM {
    /// AM's Platform Username. `validateInput: false`: a NameCallback "User Name" (AM ≥ 7.1);
    /// `true`: a ValidatedCreateUsernameCallback with IDM's username policies, shown again while
    /// one fails or the client only validates. Stores `username` and `objectAttributes.<usernameAttribute>`.
    struct ValidatedUsernameNode: PageChild {
        static let type = NodeType(name: "ValidatedUsernameNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .collector(
                ValidatedUsernameNode(
                    validate: try s.bool("validateInput", default: false),
                    attribute: try s.string("usernameAttribute", default: "userName")))
        }

        var validate: Bool
        var attribute: String
        var callbackCount: Int { 1 }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            let typed = answers?[0].value
            guard validate else { return [.name(prompt: "User Name", value: typed)] }
            return [
                .validatedUsername(
                    prompt: AMPlatformSchema.title("userName"), attribute: attribute,
                    policies: AMPlatformSchema.usernamePolicies,
                    failedPolicies: failed[0] ?? [], required: true, value: typed)
            ]
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
            guard let value = answers[0].value else { return }
            context.shared["username"] = value
            context.shared.set(path: "objectAttributes." + attribute.replacingSlashes, to: value)
        }

        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
            guard validate else { return PageChildReview() }
            let failed = PolicyEvaluator(users: context.users).failed(
                AMPlatformSchema.usernamePolicies, value: answers[0].value ?? "", sharedState: context.shared)
            return PageChildReview(failed: failed, field: attribute, validateOnly: answers[0].validateOnly)
        }
    }
}
