import AuthBridgeCore

extension AM {
    /// AM's Push Wait node (ForgeRock/am-external auth-nodes `push/PushWaitNode.java`,
    /// `wait/WaitingHelper.java`): a PollingWaitCallback of `secondsToWait` (its message
    /// `{{time}}` filled in), for a number challenge the number to tap in the message and in a
    /// `pushChallengeNumber` hidden value, and a Confirmation whose one option (`exitMessage`,
    /// "Cancel") is index 0, pre-set to 100 ("not pressed"). Choosing it is `EXITED`; the first
    /// answer after `secondsToWait` on the daemon's clock is `DONE`. The deadline is kept in
    /// shared state under `<node id>.end_time`, in epoch milliseconds, as AM keeps it.
    struct PushWaitNode: JourneyNode {
        static let type = NodeType(name: "PushWaitNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                PushWaitNode(
                    secondsToWait: try s.int("secondsToWait", default: 5, in: 1...3600),
                    waitingMessage: try s.localized("waitingMessage")?.text ?? "Waiting for response...",
                    challengeMessage: try s.localized("challengeMessage")?.text
                        ?? "Tap the number [{{challenge}}] on the Push Notification to continue.",
                    exitMessage: try s.localized("exitMessage")?.text ?? "Cancel"))
        }

        /// The Cancel confirmation reads as the Polling Wait node's exit option does.
        static let exitPressed = PollingWaitNode.exitPressed
        static let exitNotPressed = PollingWaitNode.exitNotPressed

        var secondsToWait: Int
        var waitingMessage: String
        var challengeMessage: String
        var exitMessage: String

        var outcomes: [String] { ["DONE", "EXITED"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            let endKey = context.nodeId + ".end_time"
            let spamKey = context.nodeId + ".spam_count"
            let now = Int64((context.clock.now * 1000).rounded(.down))
            let end = context.shared[endKey]?.intValue ?? now + Int64(secondsToWait) * 1000
            if let answers = context.answers, JourneyValues.optionIndex(answers.last?.value) == Self.exitPressed {
                context.shared[endKey] = nil
                context.shared[spamKey] = nil
                return .outcome("EXITED")
            }
            if now > end {
                context.shared[endKey] = nil
                context.shared[spamKey] = nil
                return .outcome("DONE")
            }
            context.shared[endKey] = .int(end)
            context.shared[spamKey] = .int((context.shared[spamKey]?.intValue ?? -1) + 1)
            var callbacks: [Callback]
            if case .string(let number)? = context.shared[Push.numberChallengeKey] {
                callbacks = [
                    .pollingWait(
                        waitTime: secondsToWait * 1000,
                        message: Push.replacing("{{challenge}}", in: challengeMessage, with: number)),
                    .hiddenValue(id: "pushChallengeNumber", value: number),
                ]
            } else {
                callbacks = [
                    .pollingWait(
                        waitTime: secondsToWait * 1000,
                        message: Push.replacing("{{time}}", in: waitingMessage, with: String(secondsToWait)))
                ]
            }
            callbacks.append(
                .confirmation(
                    prompt: "", messageType: 0, options: [exitMessage], optionType: -1, defaultOption: Self.exitPressed,
                    preset: Self.exitNotPressed))
            return .send(Step(callbacks: callbacks))
        }
    }
}
