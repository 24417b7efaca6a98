import AuthBridgeCore

extension AM {
    /// AM's Account Lockout: makes the journey's user inactive (`LOCK`, until unlocked) or active
    /// again (`UNLOCK`). No user is a node error.
    struct AccountLockoutNode: JourneyNode {
        static let type = NodeType(name: "AccountLockoutNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let action = try s.string("lockAction", default: "LOCK")
            guard action == "LOCK" || action == "UNLOCK" else {
                throw SettingsError(reason: "\"lockAction\" must be LOCK or UNLOCK, got \(action)")
            }
            return .node(AccountLockoutNode(lock: action == "LOCK"))
        }
        .journeyFile(
            JourneyFileSyntax(name: "accountLockout", outcomeNames: ["outcome": "next"]) {
                (s: inout Settings) throws(SettingsError) in
                let action = try s.string("lockAction", default: "LOCK")
                guard action == "LOCK" || action == "UNLOCK" else {
                    throw SettingsError(reason: "\"lockAction\" must be LOCK or UNLOCK")
                }
                if s.raw("duration") != nil {
                    throw SettingsError(
                        reason:
                            "\"duration\" is no setting of AM's Account Lockout, which locks until unlocked; a lock that ends is dataStoreDecision's \"lockoutMode\""
                    )
                }
                return [AccountLockoutNode(lock: action == "LOCK")]
            })

        var lock: Bool
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            let found = context.users.update(username: context.username) { user in
                user.lock = lock ? DirectoryUser.AccountLock(until: nil) : nil
                if !lock { user.counters = [:] }
            }
            guard found else {
                return AMFailure.nodeError(
                    &context, "AccountLockoutNode", "no user \"\(context.username)\" to \(lock ? "lock" : "unlock")")
            }
            if lock {
                context.failureReason = JourneyFailure.Reason(
                    "account_locked", "the account \(context.username) was locked (Account Lockout)")
            }
            return .outcome("outcome")
        }
    }
}
