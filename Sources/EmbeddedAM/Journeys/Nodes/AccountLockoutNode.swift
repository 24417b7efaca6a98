import AuthBridgeCore

/// AM's Account Lockout: locks (or unlocks) the user named in shared state. `next`.
struct AccountLockoutNode: JourneyNode {
    static let type = NodeType(name: "accountLockout") { (s: inout Settings) throws(SettingsError) in try AccountLockoutNode(&s) }

    var lock: Bool
    /// nil: until unlocked; else seconds on the daemon clock.
    var duration: Double?

    var outcomes: [String] { ["next"] }

    init(_ s: inout Settings) throws(SettingsError) {
        let action = try s.string("lockAction", default: "LOCK")
        guard action == "LOCK" || action == "UNLOCK" else { throw SettingsError(reason: "\"lockAction\" must be LOCK or UNLOCK") }
        lock = action == "LOCK"
        duration = try s.seconds("duration", default: nil)
    }

    func process(_ context: inout NodeContext) -> NodeAction {
        let now = context.clock.now
        context.users.update(username: context.username) { user in
            if lock {
                user.lock = DirectoryUser.AccountLock(until: duration.map { now + $0 })
            } else {
                user.lock = nil
                user.counters = [:]
            }
        }
        return .outcome("next")
    }
}
