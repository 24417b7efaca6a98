import AuthBridgeCore

extension AM {
    /// AM's Push Result Verifier (ForgeRock/am-external auth-nodes `push/PushResultVerifierNode.java`):
    /// reads the message the sender sent. Approved → `TRUE` (the device's last access date
    /// updated), or for a number challenge `TRUE` only when the number the phone sent is the
    /// one the page showed, else `FALSE`; denied → `FALSE`; gone from the push service →
    /// `EXPIRED`; unanswered → `WAITING`, until the sender's message timeout has run out on the
    /// daemon's clock, counted from this node's first wait, then `EXPIRED`. No message sent in
    /// this journey fails it, as in AM.
    struct PushResultVerifierNode: JourneyNode {
        static let type = NodeType(name: "PushResultVerifierNode", asksForInput: false) {
            (_: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(PushResultVerifierNode())
        }

        var outcomes: [String] { ["TRUE", "FALSE", "EXPIRED", "WAITING"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard case .string(let messageId)? = context.shared[Push.messageIdKey] else {
                return AMFailure.nodeError(&context, "PushResultVerifierNode", "Unable to find push message ID")
            }
            switch context.push.check(messageId) {
            case nil:
                context.failureReason = Self.expired
                return finish("EXPIRED", &context)
            case .success?:
                touchDevice(&context)
                let contents = context.push.contents(messageId) ?? [:]
                context.push.delete(messageId)
                // AM compares only when the answer carried a number (`AuthClusterMessageHandler.getContents`).
                if let chosen = contents["challengeResponse"]?.intValue,
                    case .string(let shown)? = context.shared[Push.numberChallengeKey]
                {
                    guard Int64(shown) == chosen else {
                        context.failureReason = JourneyFailure.Reason(
                            "push_wrong_number", "the push was approved with \(chosen), not the number shown (\(shown))"
                        )
                        return finish("FALSE", &context)
                    }
                    return finish("TRUE", &context)
                }
                return finish("TRUE", &context)
            case .denied?:
                context.push.delete(messageId)
                context.failureReason = JourneyFailure.Reason("push_denied", "the push notification was denied")
                return finish("FALSE", &context)
            case .unknown?:
                guard let timeToLive = context.shared[Push.timeToLiveKey]?.intValue else { return .outcome("WAITING") }
                let now = Int64((context.clock.now * 1000).rounded(.down))
                guard let expiration = context.shared[Push.messageExpirationKey]?.intValue else {
                    context.shared[Push.messageExpirationKey] = .int(now + timeToLive)
                    return .outcome("WAITING")
                }
                guard now > expiration else { return .outcome("WAITING") }
                context.failureReason = Self.expired
                return finish("EXPIRED", &context)
            }
        }

        private static let expired = JourneyFailure.Reason(
            "push_expired", "the push notification expired unanswered")

        private func finish(_ outcome: String, _ context: inout NodeContext) -> NodeAction {
            for key in [Push.messageIdKey, Push.messageExpirationKey, Push.timeToLiveKey] { context.shared[key] = nil }
            return .outcome(outcome)
        }

        private func touchDevice(_ context: inout NodeContext) {
            guard case .string(let mechanismUid)? = context.shared[Push.mechanismUidKey] else { return }
            let now = context.clock.now
            _ = context.users.update(username: context.username) { user in
                if let index = user.devices.push.firstIndex(where: { $0.mechanismUid == mechanismUid }) {
                    user.devices.push[index].record.lastAccessDate = now
                }
            }
        }
    }
}
