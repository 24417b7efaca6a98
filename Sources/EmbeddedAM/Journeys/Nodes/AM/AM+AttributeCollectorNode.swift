import AuthBridgeCore

extension AM {
    /// AM's Attribute Collector: one attribute callback per attribute, by its IDM type (String,
    /// Number, Boolean), prompt from IDM's title, `policies` IDM's when `validateInputs` (else
    /// `{}`), the value prefilled from what the user typed, shared state, or the stored user. Shown
    /// again while a required value is empty or a policy fails; stores `objectAttributes.<attr>`.
    struct AttributeCollectorNode: PageChild {
        static let type = NodeType(name: "AttributeCollectorNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            guard let attributes = try s.strings("attributesToCollect", nonEmpty: true) else {
                throw SettingsError(reason: "\"attributesToCollect\" is required (a non-empty list of attribute names)")
            }
            for attribute in attributes {
                try Settings.checkPath(attribute, key: "attributesToCollect", separator: "/")
            }
            return .collector(
                AttributeCollectorNode(
                    attributes: attributes, required: try s.bool("required", default: false),
                    validate: try s.bool("validateInputs", default: false),
                    identityAttribute: try s.string("identityAttribute", default: "userName")))
        }

        var attributes: [String]
        var required: Bool
        var validate: Bool
        var identityAttribute: String
        var callbackCount: Int { attributes.count }

        private func policies(_ attribute: String) -> [PolicySpec] {
            (required ? [PolicySpec(policyId: "required", params: [:])] : []) + AMPlatformSchema.policies(attribute)
        }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            let stored = AMIdentity.user(context, attribute: identityAttribute)
            return attributes.enumerated().map { index, attribute in
                let type = AMPlatformSchema.type(attribute)
                let path = attribute.replacingSlashes
                let value =
                    answers?[index].value ?? context.shared.value(path: "objectAttributes." + path)
                    ?? stored?.attributes.value(path: path) ?? type.empty
                let policyObject: JSONValue =
                    validate && type != .boolean
                    ? PolicySpec.object(policies(attribute), name: attribute) : .object([:])
                return .attributeInput(
                    type, name: attribute, prompt: AMPlatformSchema.title(attribute), required: required,
                    policies: policyObject,
                    failedPolicies: failed[index] ?? [], value: value)
            }
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
            for (attribute, answer) in zip(attributes, answers) {
                if let value = answer.value {
                    context.shared.set(path: "objectAttributes." + attribute.replacingSlashes, to: value)
                }
            }
        }

        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
            var review = PageChildReview()
            let evaluator = PolicyEvaluator(users: context.users)
            for (index, attribute) in attributes.enumerated() {
                let value = answers[index].value ?? .null
                var failures: [String] = []
                var requirements: [String] = []
                if validate, AMPlatformSchema.type(attribute) != .boolean {
                    let failed = evaluator.failed(policies(attribute), value: value, sharedState: context.shared)
                    failures = failed.map { PolicyEvaluator.amFormat(requirement: $0.requirement, params: $0.params) }
                    requirements = failed.map(\.requirement)
                } else if required, value == .null || value == "" {
                    // Without validation AM still refuses an empty required value [inf: the requirement it reports].
                    failures = [PolicyEvaluator.amFormat(requirement: "REQUIRED", params: [:])]
                    requirements = ["REQUIRED"]
                }
                if !failures.isEmpty { review.failed[index] = failures }
                if !requirements.isEmpty { review.failedPolicies.append((attribute, requirements)) }
                if !failures.isEmpty || answers[index].validateOnly { review.showAgain = true }
            }
            return review
        }
    }
}
