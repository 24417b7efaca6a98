import AuthBridgeCore

/// AM's Polling Wait: makes the client wait and resubmit. Every answer before `seconds` have
/// passed on the daemon clock gets the same step again; `done` after, and `exit` when the
/// client picks the exit option of an exitable wait.
struct PollingWaitNode: JourneyNode {
    static let type = NodeType(name: "pollingWait") { (s: inout Settings) throws(SettingsError) in try PollingWaitNode(&s) }

    var seconds: Double
    var message: String
    var exitable: Bool
    var exitMessage: String
    var stage: String?

    var outcomes: [String] { exitable ? ["done", "exit"] : ["done"] }

    init(_ s: inout Settings) throws(SettingsError) {
        seconds = try s.seconds("seconds", default: 8)!
        message = try s.string("message", default: "Waiting for response...")
        exitable = try s.bool("exitable", default: false)
        exitMessage = try s.string("exitMessage", default: "Exit")
        stage = try s.string("stage")
    }

    /// The wait in milliseconds, as the PollingWaitCallback carries it.
    private var waitTime: Int { Int((seconds * 1000).rounded()) }

    /// The limits the callback's own settings have in a page (`waitTime`, a `message`).
    func check() throws(SettingsError) {
        guard (0...3_600_000).contains(waitTime) else { throw SettingsError(reason: "\"waitTime\" must be an integer from 0 to 3600000") }
        guard !message.isEmpty else { throw SettingsError(reason: "\"message\" is required (a non-empty string)") }
    }

    func process(_ context: inout NodeContext) -> NodeAction {
        guard let answers = context.answers else {
            context.nodeState["pollUntil"] = .double(context.clock.now + seconds)
            return .send(step(exitAnswer: nil))
        }
        let exitAnswer = exitable ? answers[1].value : nil
        if let exitAnswer { context.shared.set(path: "pollingExit", to: exitAnswer) }
        if exitAnswer?.intValue == 0 { return .outcome("exit") }
        if context.clock.now >= context.nodeState["pollUntil"]?.doubleValue ?? 0 { return .outcome("done") }
        return .send(step(exitAnswer: exitAnswer))
    }

    private func step(exitAnswer: JSONValue?) -> Step {
        var callbacks: [Callback] = [.pollingWait(waitTime: waitTime, message: message)]
        if exitable {
            // 100 is "no option chosen": a plain resubmit is a poll, choosing 0 is the exit.
            callbacks.append(.confirmation(
                prompt: "", messageType: 0, options: [exitMessage], optionType: -1, defaultOption: 0, preset: 100, value: exitAnswer))
        }
        return Step(stage: stage, callbacks: callbacks)
    }
}
