import AuthBridgeCore

extension AM {
    /// AM's Platform Password. `validateInput: false`: a PasswordCallback "Password"; `true`: a
    /// ValidatedCreatePasswordCallback with IDM's password policies (platform defaults), shown
    /// again while one fails or the client only validates. The password goes to transient state,
    /// as `password` and `objectAttributes.<passwordAttribute>`, never to shared state.
    struct ValidatedPasswordNode: PageChild {
        static let type = NodeType(name: "ValidatedPasswordNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .collector(
                ValidatedPasswordNode(
                    validate: try s.bool("validateInput", default: false),
                    attribute: try s.string("passwordAttribute", default: "password")))
        }

        var validate: Bool
        var attribute: String
        var callbackCount: Int { 1 }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            guard validate else { return [.password(prompt: "Password")] }
            return [
                .validatedPassword(
                    prompt: AMPlatformSchema.title("password"), attribute: attribute, echoOn: false,
                    policies: AMPlatformSchema.passwordPolicies,
                    failedPolicies: failed[0] ?? [], required: true)
            ]
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
            guard let value = answers[0].value else { return }
            context.transient["password"] = value
            context.shared["password"] = nil
            context.transient.set(path: "objectAttributes." + attribute.replacingSlashes, to: value)
        }

        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
            guard validate else { return PageChildReview() }
            let failed = PolicyEvaluator(users: context.users).failed(
                AMPlatformSchema.passwordPolicies, value: answers[0].value ?? "", sharedState: context.shared)
            return PageChildReview(failed: failed, field: attribute, validateOnly: answers[0].validateOnly)
        }
    }
}
