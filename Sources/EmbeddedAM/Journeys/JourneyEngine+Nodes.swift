import AuthBridgeCore
import IdentityServer

/// The nodes that decide or act without the client: each reads shared state and the directory
/// and names its outcome (or answers at once, as a locked account does).
extension JourneyEngine {
    func checkPassword(_ decision: JourneyNode.DataStoreDecision, _ session: inout Session) -> Step {
        let username = Self.text(session.shared["username"])
        let password = Self.text(session.shared["password"])
        let now = clock.now
        if let lock = users.find(username: username)?.lock {
            if lock.holds(at: now) { return .reply(ServerReply(status: 401, body: AMErrors.userLockedOut)) }
            // The lockout window has passed: the account is open again, with its counts cleared.
            users.update(username: username) { user in
                user.lock = nil
                user.counters = [:]
            }
        }
        if users.verify(username: username, password: password) != nil {
            if decision.lockoutMode != nil {
                users.update(username: username) { $0.counters[Self.lockoutModeCounter] = nil }
            }
            return .outcome("true")
        }
        if let mode = decision.lockoutMode, users.contains(username: username) {
            var failures = 0
            users.update(username: username) { user in
                failures = (user.counters[Self.lockoutModeCounter] ?? 0) + 1
                user.counters[Self.lockoutModeCounter] = failures
                if failures >= mode.attempts { user.lock = DirectoryUser.AccountLock(until: mode.duration.map { now + $0 }) }
            }
            let remaining = mode.attempts - failures
            if remaining <= 0 {
                session.failureMessage = "User Locked Out."
                session.failureDetail["failureUrl"] = ""
            } else if remaining <= mode.warnWhenRemaining {
                session.failureMessage = AMErrors.lockoutWarning(remaining: remaining)
                session.failureDetail["failureUrl"] = ""
            }
        }
        return .outcome("false")
    }

    func createUser(_ session: Session) -> Step {
        let username = Self.text(session.shared["username"])
        let password = Self.text(session.shared["password"])
        var attributes = session.shared["objectAttributes"]?.objectValue ?? [:]
        if case .array(let answers)? = attributes["kbaInfo"] {
            attributes["kbaInfo"] = .array(answers.map(hashedAnswer))
        }
        do {
            try users.add(username: username, password: password, attributes: attributes)
            return .outcome("created")
        } catch {
            return .outcome("failed")
        }
    }

    /// IDM keeps KBA answers as salted hashes, never in clear; so does the embedded directory.
    /// Answers are compared case-insensitively, hence the lowercasing before hashing.
    private func hashedAnswer(_ entry: JSONValue) -> JSONValue {
        let question = Self.text(entry["question"])
        let answer = Self.text(entry["answer"]).lowercased()
        let salt = random.bytes(16)
        let digest = SHA256.hash(salt + Array(answer.utf8))
        return [
            "customQuestion": .string(question),
            "answer": ["$crypto": [
                "type": "salted-hash",
                "value": ["algorithm": "SHA-256", "salt": .string(Base64URL.encode(salt)), "data": .string(Base64URL.encode(digest))],
            ]],
        ]
    }

    func countRetry(_ limit: JourneyNode.RetryLimit, node: String, _ session: inout Session) -> Step {
        let username = Self.text(session.shared["username"])
        guard limit.saveToUser else {
            // AM keeps this count in shared state, gone when the journey ends.
            let count = Int(session.shared["retryCount"]?[node]?.intValue ?? 0) + 1
            var counts = session.shared["retryCount"]?.objectValue ?? [:]
            counts[node] = .int(Int64(count))
            session.shared["retryCount"] = .object(counts)
            return .outcome(count < limit.limit ? "retry" : "reject")
        }
        var count = 0
        let key = session.journey.name + "/" + node
        let found = users.update(username: username) { user in
            count = (user.counters[key] ?? 0) + 1
            user.counters[key] = count
        }
        // AM: with the count saved to the user, an unknown user ends the journey with an error.
        guard found else { return .reply(ServerReply(status: 401, body: AMErrors.loginFailure)) }
        return .outcome(count < limit.limit ? "retry" : "reject")
    }

    func lock(_ lockout: JourneyNode.AccountLockout, _ session: Session) -> Step {
        let now = clock.now
        users.update(username: Self.text(session.shared["username"])) { user in
            if lockout.lock {
                user.lock = DirectoryUser.AccountLock(until: lockout.duration.map { now + $0 })
            } else {
                user.lock = nil
                user.counters = [:]
            }
        }
        return .outcome("next")
    }

    func generateCode(_ generate: JourneyNode.OTPGenerate, _ session: inout Session) -> Step {
        let code = random.string(length: generate.length, alphabet: "0123456789")
        let expires = clock.now + generate.validity
        session.oneTimeCode = (code, expires)
        let username = Self.text(session.shared["username"])
        let attribute = generate.delivery == "sms" ? "telephoneNumber" : "mail"
        let to = users.find(username: username)?.attributes[attribute]?.stringValue ?? ""
        sendCode(Outbox.OneTimeCode(
            code: code, delivery: generate.delivery, to: to, username: username, journey: session.journey.name, expiresAt: expires))
        return .outcome("next")
    }

    func decide(_ decision: JourneyNode.ValueDecision, _ session: Session) -> Step {
        let value = session.shared.value(path: decision.sharedState)
        guard let expected = decision.equals else {
            switch value {
            case nil, .null?, .bool(false)?, .string("")?: return .outcome("false")
            default: return .outcome("true")
            }
        }
        return .outcome(Self.same(value, expected) ? "true" : "false")
    }

    /// Equality as a journey author means it: numbers by value (`1` equals `1.0`).
    private static func same(_ value: JSONValue?, _ expected: JSONValue) -> Bool {
        if let a = value?.doubleValue, let b = expected.doubleValue { return a == b }
        return value == expected
    }

    /// The profile arrives as a JSON *string* (`JSON.stringify` of `{identifier, metadata,
    /// location}`); it needs an identifier, and the parts the node asked for.
    func collectProfile(_ value: JSONValue?, collector: JourneyNode.DeviceProfile, into session: inout Session) -> Bool {
        guard case .string(let text)? = value, let profile = try? JSONParser.parse(text),
            case .string(let identifier)? = profile["identifier"], !identifier.isEmpty
        else { return false }
        if collector.metadata, profile["metadata"]?.objectValue == nil { return false }
        if collector.location, profile["location"]?.objectValue == nil { return false }
        session.shared["deviceProfile"] = profile
        return true
    }
}
