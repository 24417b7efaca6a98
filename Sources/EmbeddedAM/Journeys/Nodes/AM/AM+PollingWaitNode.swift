import AuthBridgeCore

extension AM {
    /// AM's Polling Wait: a PollingWaitCallback (`waitTime` in ms, as a string) the client
    /// answers after waiting; until `secondsToWait` have passed on the daemon clock since the node
    /// was reached, each answer gets the step again. `DONE` then. `exitable` adds a
    /// ConfirmationCallback with the exit message, pre-filled with 100 (AM's "not pressed"):
    /// choosing 0 is `EXITED`. With `spamDetectionEnabled`, more than `spamDetectionTolerance`
    /// early answers is `SPAM`. Outcome ids as AM's `PollingWaitOutcome`. AuthBridge's JSON
    /// (`pollingWait`) writes the wait as `seconds`, a whole number as AM's setting is.
    struct PollingWaitNode: JourneyNode {
        static let type = NodeType(name: "PollingWaitNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                PollingWaitNode(
                    seconds: try s.int("secondsToWait", default: 8, in: 1...3600),
                    spamDetection: try s.bool("spamDetectionEnabled", default: false),
                    tolerance: try s.int("spamDetectionTolerance", default: 3, in: 0...1000),
                    exitable: try s.bool("exitable", default: false),
                    waitingMessage: try s.localized("waitingMessage")?.text ?? "Waiting for response...",
                    exitMessage: try s.localized("exitMessage")?.text ?? "Exit"))
        }
        .journeyFile(
            JourneyFileSyntax(name: "pollingWait", outcomeNames: ["DONE": "done", "EXITED": "exit"]) {
                (s: inout Settings) throws(SettingsError) in
                let node = PollingWaitNode(
                    seconds: try s.int("seconds", default: 8, in: 1...3600), spamDetection: false, tolerance: 0,
                    exitable: try s.bool("exitable", default: false),
                    waitingMessage: try s.string("message", default: "Waiting for response..."),
                    exitMessage: try s.string("exitMessage", default: "Exit"))
                guard !node.waitingMessage.isEmpty else {
                    throw SettingsError(reason: "\"message\" is required (a non-empty string)")
                }
                return [AuthBridge.Staged.node(node, stage: try s.string("stage"))]
            })

        static let exitPressed = 0
        static let exitNotPressed = 100

        var seconds: Int
        var spamDetection: Bool
        var tolerance: Int
        var exitable: Bool
        var waitingMessage: String
        var exitMessage: String

        var outcomes: [String] { ["DONE"] + (exitable ? ["EXITED"] : []) + (spamDetection ? ["SPAM"] : []) }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let answers = context.answers else {
                context.nodeState["waitUntil"] = .double(context.clock.now + Double(seconds))
                context.nodeState["early"] = .int(0)
                return .send(step)
            }
            if exitable, JourneyValues.optionIndex(answers.last?.value) == Self.exitPressed {
                context.failureReason = JourneyFailure.Reason("polling_exited", "the user left the polling wait")
                return .outcome("EXITED")
            }
            if context.clock.now >= context.nodeState["waitUntil"]?.doubleValue ?? 0 { return .outcome("DONE") }
            if spamDetection {
                let early = Int(context.nodeState["early"]?.intValue ?? 0) + 1
                context.nodeState["early"] = .int(Int64(early))
                if early > tolerance {
                    context.failureReason = JourneyFailure.Reason(
                        "polling_spam",
                        "\(early) answers came before the \(seconds)s wait was over, past the tolerance of \(tolerance)"
                    )
                    return .outcome("SPAM")
                }
            }
            return .send(step)
        }

        private var step: Step {
            var callbacks: [Callback] = [.pollingWait(waitTime: seconds * 1000, message: waitingMessage)]
            if exitable {
                callbacks.append(
                    .confirmation(
                        prompt: "", messageType: 0, options: [exitMessage], optionType: -1, defaultOption: 0,
                        preset: Self.exitNotPressed))
            }
            return Step(callbacks: callbacks)
        }
    }
}
