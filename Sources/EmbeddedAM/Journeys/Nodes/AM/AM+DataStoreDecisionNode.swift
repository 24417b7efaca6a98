import AuthBridgeCore
import IdentityServer

extension AM {
    /// AM's Data Store Decision: `username` and the transient password against the directory,
    /// `true` or `false`. A locked (inactive) user ends the journey with "User Locked Out."; a
    /// lock whose time has passed is lifted first, its counts cleared. With the realm's "Login
    /// Failure Lockout Mode" (`lockoutMode`, a realm setting exports do not carry: AuthBridge's
    /// JSON sets it on the node) failures are counted on the user, the failure body warns before
    /// the lock, and the last one locks.
    struct DataStoreDecisionNode: JourneyNode {
        static let type = NodeType(name: "DataStoreDecisionNode", asksForInput: false) {
            (_: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(DataStoreDecisionNode())
        }
        .journeyFile(
            JourneyFileSyntax(name: "dataStoreDecision") { (s: inout Settings) throws(SettingsError) in
                guard let mode = try s.object("lockoutMode") else { return [DataStoreDecisionNode()] }
                var m = try Settings(.object(mode), what: "\"lockoutMode\"")
                let attempts = try m.int("attempts", default: 5, in: 1...100)
                let lockoutMode = LockoutMode(
                    attempts: attempts, warnWhenRemaining: try m.int("warnWhenRemaining", default: 1, in: 0...attempts),
                    duration: try m.seconds("duration", default: nil))
                try m.finish()
                return [DataStoreDecisionNode(lockoutMode: lockoutMode)]
            })

        /// AM's realm "Login Failure Lockout Mode", applied where the password is checked.
        struct LockoutMode: Sendable {
            var attempts: Int
            var warnWhenRemaining: Int
            /// nil: until unlocked; else seconds on the daemon clock.
            var duration: Double?
        }

        var lockoutMode: LockoutMode? = nil
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            let users = context.users
            let username = context.username
            let now = context.clock.now
            if let lock = users.find(username: username)?.lock {
                if lock.holds(at: now) {
                    context.failureReason = .accountLocked(username)
                    return .reply(ServerReply(status: 401, body: AMErrors.userLockedOut))
                }
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
            if let mode = lockoutMode, users.contains(username: username) { countFailure(mode, &context) }
            context.failureReason =
                users.contains(username: username) ? .wrongPassword(username) : .unknownUser(username)
            return .outcome("false")
        }

        private func countFailure(_ mode: LockoutMode, _ context: inout NodeContext) {
            let now = context.clock.now
            var failures = 0
            context.users.update(username: context.username) { user in
                failures = (user.counters[FailureCounters.lockoutMode] ?? 0) + 1
                user.counters[FailureCounters.lockoutMode] = failures
                if failures >= mode.attempts {
                    user.lock = DirectoryUser.AccountLock(until: mode.duration.map { now + $0 })
                }
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
    }
}
