import AuthBridgeCore

extension AM {
    /// AM's Patch Object: patches the user found by `identityAttribute` with `objectAttributes`
    /// (shared and transient) minus `ignoredFields`: a password is re-hashed, accepted terms
    /// kept, other attributes replaced (`patchAsObject` merges objects instead). `PATCHED`
    /// (nothing to patch included), or `FAILURE` when there is no such user.
    struct PatchObjectNode: JourneyNode {
        static let type = NodeType(name: "PatchObjectNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            _ = try s.string("identityResource")
            return .node(
                PatchObjectNode(
                    identityAttribute: try s.string("identityAttribute", default: "userName"),
                    ignoredFields: try s.strings("ignoredFields", nonEmpty: false) ?? [],
                    patchAsObject: try s.bool("patchAsObject", default: false)))
        }

        var identityAttribute: String
        var ignoredFields: [String]
        var patchAsObject: Bool
        var outcomes: [String] { ["PATCHED", "FAILURE"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let user = AMIdentity.user(context, attribute: identityAttribute) else {
                context.failureReason = JourneyFailure.Reason(
                    "no_account", "no user matches the journey's \(identityAttribute) to patch",
                    ["attribute": .string(identityAttribute)])
                return .outcome("FAILURE")
            }
            var patch = AMIdentity.objectAttributes(context)
            for field in ignoredFields + ["userName"] { patch[field] = nil }
            if let terms = context.shared["termsAccepted"] { patch["termsAccepted"] = terms }
            if case .string(let password)? = patch["password"], !password.isEmpty {
                context.users.setPassword(username: user.username, to: password)
            }
            patch["password"] = nil
            if case .array(let answers)? = patch["kbaInfo"] {
                patch["kbaInfo"] = .array(answers.map { KbaAnswers.hashed($0, random: context.random) })
            }
            let merge = patchAsObject
            context.users.update(username: user.username) { stored in
                for member in patch.members {
                    if merge, case .object(let new) = member.value,
                        case .object(var old)? = stored.attributes[member.key]
                    {
                        for field in new.members { old[field.key] = field.value }
                        stored.attributes[member.key] = .object(old)
                    } else {
                        stored.attributes[member.key] = member.value
                    }
                }
            }
            return .outcome("PATCHED")
        }
    }
}
