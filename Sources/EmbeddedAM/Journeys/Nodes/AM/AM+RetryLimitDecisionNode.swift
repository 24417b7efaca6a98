import AuthBridgeCore

extension AM {
    /// AM's Retry Limit Decision: while the count is below `retryLimit`, `Retry` and count one
    /// more; at the limit, `Reject` and clear it. So a limit of 5 allows 5 retries and the 6th
    /// pass rejects. With `incrementUserAttributeOnFailure` (`saveToUser` in AuthBridge's JSON)
    /// the count is kept on the user (an unknown user is a node error, as in AM), else in the
    /// node's state for this journey.
    struct RetryLimitDecisionNode: JourneyNode {
        static let type = NodeType(name: "RetryLimitDecisionNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                RetryLimitDecisionNode(
                    limit: try s.int("retryLimit", default: 3, in: 1...100),
                    onUser: try s.bool("incrementUserAttributeOnFailure", default: true)))
        }
        .journeyFile(
            JourneyFileSyntax(name: "retryLimit", outcomeNames: ["Retry": "retry", "Reject": "reject"]) {
                (s: inout Settings) throws(SettingsError) in
                [
                    RetryLimitDecisionNode(
                        limit: try s.int("retryLimit", default: 3, in: 1...100),
                        onUser: try s.bool("saveToUser", default: true))
                ]
            })

        var limit: Int
        var onUser: Bool
        var outcomes: [String] { ["Retry", "Reject"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard onUser else {
                let count = Int(context.nodeState["count"]?.intValue ?? 0)
                guard count < limit else { return reject(&context) }
                context.nodeState["count"] = .int(Int64(count + 1))
                return .outcome("Retry")
            }
            let key = FailureCounters.retryLimit(journey: context.journeyName, node: context.nodeId)
            var retry = false
            let found = context.users.update(username: context.username) { user in
                let count = user.counters[key] ?? 0
                retry = count < limit
                user.counters[key] = retry ? count + 1 : nil
            }
            guard found else {
                return AMFailure.nodeError(
                    &context, "RetryLimitDecisionNode", "no user \"\(context.username)\" to keep the retry count on")
            }
            return retry ? .outcome("Retry") : reject(&context)
        }

        private func reject(_ context: inout NodeContext) -> NodeAction {
            context.failureReason = JourneyFailure.Reason(
                "retries_exhausted", "all \(limit) retries were used", ["retryLimit": .int(Int64(limit))])
            return .outcome("Reject")
        }
    }
}
