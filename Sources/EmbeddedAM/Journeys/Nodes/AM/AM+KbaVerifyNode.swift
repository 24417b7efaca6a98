import AuthBridgeCore

extension AM {
    /// AM's KBA Verification: the stored user's KBA answers (`kbaInfoAttribute`, as KBA
    /// Definition and Create Object keep them, hashed) are asked back, IDM's
    /// `minimumAnswersToVerify` (1) of them, picked at random as AM does, each as a
    /// PasswordCallback whose prompt is the question. All right (compared case-insensitively,
    /// `KbaAnswers.matches`) → `true`, else `false`. No user, or fewer answers stored than
    /// `minimumAnswersToDefine`, makes AM's node throw: the journey fails.
    struct KbaVerifyNode: JourneyNode {
        static let type = NodeType(name: "KbaVerifyNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                KbaVerifyNode(
                    kbaAttribute: try s.string("kbaInfoAttribute", default: "kbaInfo"),
                    identityAttribute: try s.string("identityAttribute", default: "userName")))
        }

        /// IDM's platform default (`selfservice.kba.json`).
        static let minimumAnswersToVerify = 1

        var kbaAttribute: String
        var identityAttribute: String
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let user = AMIdentity.user(context, attribute: identityAttribute) else {
                return AMFailure.nodeError(
                    &context, "KbaVerifyNode", "no user found by \(identityAttribute) to verify answers for")
            }
            let stored = user.attributes.value(path: kbaAttribute.replacingSlashes)?.arrayValue ?? []
            guard stored.count >= AMPlatformSchema.kbaMinimumAnswers else {
                return AMFailure.nodeError(
                    &context, "KbaVerifyNode",
                    "the user \"\(user.username)\" has \(stored.count) KBA answers, fewer than \(AMPlatformSchema.kbaMinimumAnswers)"
                )
            }
            guard let answers = context.answers else {
                // Which questions were asked is kept, so the answers are checked against them.
                var asked = Array(stored.indices)
                while asked.count > Self.minimumAnswersToVerify {
                    asked.remove(at: Int(context.random.next() % UInt64(asked.count)))
                }
                var callbacks: [Callback] = []
                for index in asked {
                    guard let question = Self.question(stored[index]) else {
                        return AMFailure.nodeError(
                            &context, "KbaVerifyNode",
                            "KBA answer \(index) of \"\(user.username)\" has no question AuthBridge knows")
                    }
                    callbacks.append(.password(prompt: question))
                }
                context.nodeState["asked"] = .array(asked.map { .int(Int64($0)) })
                return .send(Step(callbacks: callbacks))
            }
            let asked = context.nodeState["asked"]?.arrayValue?.compactMap { $0.intValue.map(Int.init) } ?? []
            guard asked.count == answers.count, !asked.isEmpty else { return wrongAnswers(user.username, &context) }
            let right = zip(asked, answers).allSatisfy { index, answer in
                stored.indices.contains(index)
                    && KbaAnswers.matches(stored[index], answer: JourneyValues.text(answer.value))
            }
            return right ? .outcome("true") : wrongAnswers(user.username, &context)
        }

        private func wrongAnswers(_ username: String, _ context: inout NodeContext) -> NodeAction {
            context.failureReason = JourneyFailure.Reason(
                "wrong_kba_answer", "an answer to \(username)'s security questions is wrong")
            return .outcome("false")
        }

        /// A user-defined question is kept as written; a predefined one by IDM's id ("1", "2").
        private static func question(_ entry: JSONValue) -> String? {
            if case .string(let custom)? = entry["customQuestion"], !custom.isEmpty { return custom }
            guard case .string(let id)? = entry["questionId"], let number = Int(id),
                AMPlatformSchema.kbaQuestions.indices.contains(number - 1)
            else {
                return nil
            }
            return AMPlatformSchema.kbaQuestions[number - 1]
        }
    }
}
