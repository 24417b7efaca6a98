import AuthBridgeCore

extension AM {
    /// AM's Polling Wait: a PollingWaitCallback (`waitTime` in ms, as a string) the client
    /// answers after waiting; until `secondsToWait` have passed on the daemon clock since the node
    /// was reached, each answer gets the step again. `DONE` then. `exitable` adds a
    /// ConfirmationCallback with the exit message, pre-filled with 100 (AM's "not pressed"):
    /// choosing 0 is `EXITED`. With `spamDetectionEnabled`, more than `spamDetectionTolerance`
    /// early answers is `SPAM`. Outcome ids as AM's `PollingWaitOutcome`.
    struct PollingWaitNode: JourneyNode {
        static let type = AMNodeType(name: "PollingWaitNode") { (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(PollingWaitNode(
                seconds: try s.int("secondsToWait", default: 8, in: 1...3600),
                spamDetection: try s.bool("spamDetectionEnabled", default: false),
                tolerance: try s.int("spamDetectionTolerance", default: 3, in: 0...1000),
                exitable: try s.bool("exitable", default: false),
                waitingMessage: try s.localized("waitingMessage")?.text ?? "Waiting for response...",
                exitMessage: try s.localized("exitMessage")?.text ?? "Exit"))
        }

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
            if exitable, JourneyValues.optionIndex(answers.last?.value) == Self.exitPressed { return .outcome("EXITED") }
            if context.clock.now >= context.nodeState["waitUntil"]?.doubleValue ?? 0 { return .outcome("DONE") }
            if spamDetection {
                let early = Int(context.nodeState["early"]?.intValue ?? 0) + 1
                context.nodeState["early"] = .int(Int64(early))
                if early > tolerance { return .outcome("SPAM") }
            }
            return .send(step)
        }

        private var step: Step {
            var callbacks: [Callback] = [.pollingWait(waitTime: seconds * 1000, message: waitingMessage)]
            if exitable {
                callbacks.append(.confirmation(
                    prompt: "", messageType: 0, options: [exitMessage], optionType: -1, defaultOption: 0, preset: Self.exitNotPressed))
            }
            return Step(callbacks: callbacks)
        }
    }
}
