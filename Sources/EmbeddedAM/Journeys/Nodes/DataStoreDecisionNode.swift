import AuthBridgeCore
import IdentityServer

/// AM's Data Store Decision: checks `username` and the password against the directory. `true`
/// or `false`; a locked user ends the journey at once with "User Locked Out.".
struct DataStoreDecisionNode: JourneyNode {
    static let type = NodeType(name: "dataStoreDecision") { (s: inout Settings) throws(SettingsError) in try DataStoreDecisionNode(&s) }

    /// AM's realm "Login Failure Lockout Mode", applied where the password is checked: failures
    /// are counted on the user, the failure body warns before the lock.
    struct LockoutMode: Sendable {
        var attempts: Int
        var warnWhenRemaining: Int
        /// nil: until unlocked; else seconds on the daemon clock.
        var duration: Double?
    }

    var lockoutMode: LockoutMode?

    var outcomes: [String] { ["true", "false"] }

    init(_ s: inout Settings) throws(SettingsError) {
        if let mode = try s.object("lockoutMode") {
            var m = try Settings(.object(mode), what: "\"lockoutMode\"")
            let attempts = try m.int("attempts", default: 5, in: 1...100)
            lockoutMode = LockoutMode(
                attempts: attempts, warnWhenRemaining: try m.int("warnWhenRemaining", default: 1, in: 0...attempts),
                duration: try m.seconds("duration", default: nil))
            try m.finish()
        }
    }

    func process(_ context: inout NodeContext) -> NodeAction {
        let users = context.users
        let username = context.username
        let now = context.clock.now
        if let lock = users.find(username: username)?.lock {
            if lock.holds(at: now) { return .reply(ServerReply(status: 401, body: AMErrors.userLockedOut)) }
            // The lockout window has passed: the account is open again, with its counts cleared.
            users.update(username: username) { user in
                user.lock = nil
                user.counters = [:]
            }
        }
        if users.verify(username: username, password: context.password) != nil {
            if lockoutMode != nil {
                users.update(username: username) { $0.counters[FailureCounters.lockoutMode] = nil }
            }
            return .outcome("true")
        }
        if let mode = lockoutMode, users.contains(username: username) {
            var failures = 0
            users.update(username: username) { user in
                failures = (user.counters[FailureCounters.lockoutMode] ?? 0) + 1
                user.counters[FailureCounters.lockoutMode] = failures
                if failures >= mode.attempts { user.lock = DirectoryUser.AccountLock(until: mode.duration.map { now + $0 }) }
            }
            let remaining = mode.attempts - failures
            if remaining <= 0 {
                context.failureMessage = "User Locked Out."
                context.failureDetail["failureUrl"] = ""
            } else if remaining <= mode.warnWhenRemaining {
                context.failureMessage = AMErrors.lockoutWarning(remaining: remaining)
                context.failureDetail["failureUrl"] = ""
            }
        }
        return .outcome("false")
    }
}
