import AuthBridgeCore
import IdentityServer

/// AM's Retry Limit Decision: a limit of N allows N retries; the pass after them is `reject`.
struct RetryLimitNode: JourneyNode {
    static let type = NodeType(name: "retryLimit") { (s: inout Settings) throws(SettingsError) in try RetryLimitNode(&s) }

    var limit: Int
    /// AM's "Save Retry Limit to User" (on by default): the count outlives the journey.
    var saveToUser: Bool

    var outcomes: [String] { ["retry", "reject"] }

    init(_ s: inout Settings) throws(SettingsError) {
        limit = try s.int("retryLimit", default: 3, in: 1...100)
        saveToUser = try s.bool("saveToUser", default: true)
    }

    func process(_ context: inout NodeContext) -> NodeAction {
        guard saveToUser else {
            // Counted in shared state under `retryCount.<node>`, gone when the journey ends. AM
            // keeps it in node state; here it stays where journeys could always read it.
            let count = Int(context.shared["retryCount"]?[context.nodeId]?.intValue ?? 0) + 1
            var counts = context.shared["retryCount"]?.objectValue ?? [:]
            counts[context.nodeId] = .int(Int64(count))
            context.shared["retryCount"] = .object(counts)
            return .outcome(count <= limit ? "retry" : "reject")
        }
        var count = 0
        let key = FailureCounters.retryLimit(journey: context.journeyName, node: context.nodeId)
        let found = context.users.update(username: context.username) { user in
            count = (user.counters[key] ?? 0) + 1
            user.counters[key] = count
        }
        // AM: with the count saved to the user, an unknown user ends the journey with an error.
        guard found else { return .reply(ServerReply(status: 401, body: AMErrors.loginFailure)) }
        return .outcome(count <= limit ? "retry" : "reject")
    }
}
