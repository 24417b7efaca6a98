import AuthBridgeCore
import IdentityServer

/// Runs journeys for `/authenticate`: starts them by name, answers each step with a fresh
/// authId, follows node outcomes, and ends in a session or AM's 401. An authId is good for one
/// answer; a replayed one, or any once the journey's time is up, gets "Session has timed out"
/// (errorCode 110). Suspended journeys wait under their suspendedId.
final class JourneyEngine {
    struct Session {
        var id: String
        var journey: JourneyDefinition
        var node: String
        var shared: JSONObject
        var authId: String
        /// When the journey's time is up (its `timeout` after it started or resumed).
        var deadline: Double
        var noSession: Bool
        /// What the client last typed per callback position, shown again when a page repeats.
        var values: [JSONValue?]
        /// Set by Set Failure Details and the lockout mode; the Failure node's body carries them.
        var failureMessage: String?
        var failureDetail: JSONObject
        var pollUntil: Double?
        var oneTimeCode: (code: String, expires: Double)?
    }

    /// What a node that does not talk to the client decides: an outcome, or an answer now.
    enum Step {
        case outcome(String)
        case reply(ServerReply)
    }

    private(set) var journeys: [String: JourneyDefinition] = [:]
    private var sessions: [String: Session] = [:]
    private var suspended: [String: (session: Session, expires: Double)] = [:]
    private(set) var outbox = Outbox()
    let config: EmbeddedAMConfig
    let users: UserDirectory
    let ssoSessions: SessionStore
    let clock: Clock
    let random: RandomSource
    private let signer: HMACSHA256.Key
    private static let maxHops = 256

    init(config: EmbeddedAMConfig, users: UserDirectory, sessions: SessionStore, clock: Clock, random: RandomSource) {
        self.config = config
        self.users = users
        self.ssoSessions = sessions
        self.clock = clock
        self.random = random
        self.signer = HMACSHA256.Key(random.bytes(32))
    }

    func add(_ journey: JourneyDefinition) { journeys[journey.name] = journey }

    func authenticate(_ request: AuthenticateRequest) -> ServerReply {
        pruneExpired()
        if let payload = request.payload, case .string(let authId)? = payload["authId"] {
            return answer(authId: authId, payload: payload)
        }
        if let suspendedId = request.suspendedId { return resume(suspendedId: suspendedId) }
        let type = request.authIndexType ?? "service"
        guard type == "service" else {
            return ServerReply(status: 400, body: AMErrors.badRequest("Unsupported authIndexType: \(type)"))
        }
        let name = request.authIndexValue ?? "Login"
        guard let journey = journeys[name] else {
            return ServerReply(status: 400, body: AMErrors.badRequest("No configuration found"))
        }
        var session = Session(
            id: random.uuid().lowercased(), journey: journey, node: journey.entry, shared: [:], authId: "",
            deadline: clock.now + journey.timeout, noSession: request.noSession, values: [], failureMessage: nil,
            failureDetail: [:], pollUntil: nil, oneTimeCode: nil)
        return run(&session, from: journey.entry)
    }

    // MARK: answers

    private func answer(authId: String, payload: JSONValue) -> ServerReply {
        guard let jwt = try? JWT.verify(authId, with: signer),
            case .string(let sessionId)? = jwt.claims["sessionId"],
            var session = sessions[sessionId], session.authId == authId, clock.now < session.deadline,
            let node = session.journey.nodes[session.node], let page = node.page
        else {
            return ServerReply(status: 401, body: AMErrors.sessionTimedOut)
        }
        sessions[sessionId] = nil
        var answers = Self.answers(to: page, in: payload)
        for (position, spec) in page.callbacks.enumerated() where spec.kind == .choice || spec.kind == .confirmation {
            // AM reads these as integers; a string of digits is one (Flutter sends text).
            guard let value = answers[position].value else { continue }
            guard let index = Self.index(value), index < spec.choiceCount ?? Int.max else {
                sessions[sessionId] = session
                return ServerReply(status: 400, body: AMErrors.badRequest(
                    "Invalid value for \(spec.kind.rawValue) IDToken\(position + 1): expected the index of an option, got \(JSONWriter.compact(value))"))
            }
            answers[position].inputs[""] = .int(Int64(index))
        }
        var kbaInfo: [JSONValue] = []
        session.values = []
        for (spec, answer) in zip(page.callbacks, answers) {
            session.values.append(spec.echoesValue ? answer.value : nil)
            guard let path = spec.sharedState else { continue }
            switch spec.kind {
            case .kbaCreate:
                kbaInfo.append(["question": answer.inputs["question"] ?? "", "answer": answer.inputs["answer"] ?? ""])
                session.shared.set(path: path, to: .array(kbaInfo))
            case _ where spec.inputs.count > 1 && !spec.kind.isValidated:
                session.shared.set(path: path, to: .object(JSONObject(answer.inputs.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })))
            default:
                if let value = answer.value { session.shared.set(path: path, to: value) }
            }
        }
        let evaluator = PolicyEvaluator(users: users)
        var failures: [[String]] = page.callbacks.map { _ in [] }
        for (position, spec) in page.callbacks.enumerated() where spec.kind.isValidated {
            failures[position] = evaluator.failures(for: spec, value: answers[position].value ?? .null, sharedState: session.shared)
        }
        if answers.contains(where: \.validateOnly) || failures.contains(where: { !$0.isEmpty }) {
            return issueStep(&session, page: page, failures: failures)
        }
        let outcome: String
        switch node.kind {
        case .page:
            outcome = "next"
        case .choiceCollector(let collector):
            outcome = collector.choices[Self.index(answers[0].value) ?? 0]
        case .otpVerify:
            let typed = Self.text(answers[0].value)
            if let code = session.oneTimeCode, clock.now >= code.expires {
                outcome = "expired"
            } else {
                outcome = session.oneTimeCode.map { !typed.isEmpty && typed == $0.code } == true ? "true" : "false"
            }
        case .pollingWait(let wait):
            if wait.exitable, answers.count > 1, answers[1].value?.intValue == 0 {
                outcome = "exit"
            } else if clock.now >= session.pollUntil ?? 0 {
                outcome = "done"
            } else {
                return issueStep(&session, page: page, failures: failures)
            }
        case .deviceProfile(let collector):
            outcome = collectProfile(answers[0].value, collector: collector, into: &session) ? "collected" : "invalid"
        case .suspend:
            // Still suspended: only the e-mailed link moves it on.
            return issueStep(&session, page: page, failures: failures)
        default:
            return ServerReply(status: 401, body: AMErrors.sessionTimedOut)
        }
        guard let target = node.outcomes[outcome] ?? (outcome == "expired" ? node.outcomes["false"] : nil) else {
            return internalError("node \(node.id) has no outcome \(outcome)", session)
        }
        return run(&session, from: target)
    }

    /// Answers found by input name, not by array position: clients leave callbacks out (iOS
    /// drops script TextOutputs from what it submits, am-protocol.md §8.4).
    private static func answers(to page: PageSpec, in payload: JSONValue) -> [CallbackRenderer.Answer] {
        var inputs: [JSONValue] = []
        for callback in payload["callbacks"]?.arrayValue ?? [] {
            inputs.append(contentsOf: callback["input"]?.arrayValue ?? [])
        }
        let all: JSONValue = ["input": .array(inputs)]
        return page.callbacks.enumerated().map { CallbackRenderer.answer(in: all, position: $0.offset, spec: $0.element) }
    }

    private func resume(suspendedId: String) -> ServerReply {
        guard let entry = suspended[suspendedId], clock.now < entry.expires else {
            suspended[suspendedId] = nil
            return ServerReply(status: 401, body: AMErrors.suspendedIdNotFound)
        }
        suspended[suspendedId] = nil
        var session = entry.session
        sessions[session.id] = nil
        session.deadline = clock.now + session.journey.timeout
        guard let next = session.journey.nodes[session.node]?.outcomes["next"] else {
            return internalError("suspended at a node without a next outcome", session)
        }
        return run(&session, from: next)
    }

    // MARK: running nodes

    func run(_ session: inout Session, from start: String) -> ServerReply {
        var nodeId = start
        for _ in 0..<Self.maxHops {
            guard let node = session.journey.nodes[nodeId] else { break }
            if let page = node.page {
                session.node = nodeId
                session.values = []
                switch node.kind {
                case .pollingWait(let wait): session.pollUntil = clock.now + wait.seconds
                case .suspend(let suspend): suspendJourney(&session, suspend)
                default: break
                }
                return issueStep(&session, page: page, failures: page.callbacks.map { _ in [] })
            }
            let step: Step
            switch node.kind {
            case .dataStoreDecision(let decision): step = checkPassword(decision, &session)
            case .createObject: step = createUser(session)
            case .retryLimit(let limit): step = countRetry(limit, node: nodeId, &session)
            case .accountLockout(let lockout): step = lock(lockout, session)
            case .otpGenerate(let generate): step = generateCode(generate, &session)
            case .valueDecision(let decision): step = decide(decision, session)
            case .setFailureDetails(let details):
                if let message = details.message { session.failureMessage = message }
                for member in details.details.members { session.failureDetail[member.key] = member.value }
                step = .outcome("next")
            case .success:
                return succeed(session)
            case .failure:
                return ServerReply(status: 401, body: AMErrors.loginFailure(message: session.failureMessage, detail: session.failureDetail))
            default:
                return internalError("node \(nodeId) has no step", session)
            }
            switch step {
            case .reply(let reply): return reply
            case .outcome(let outcome):
                guard let next = node.outcomes[outcome] else { return internalError("node \(nodeId) has no outcome \(outcome)", session) }
                nodeId = next
            }
        }
        return internalError("did not reach a step or an end within \(Self.maxHops) nodes", session)
    }

    private func issueStep(_ session: inout Session, page: PageSpec, failures: [[String]]) -> ServerReply {
        let claims: JSONObject = [
            "otk": .string(Base64URL.encode(random.bytes(16))), "authIndexValue": .string(session.journey.name),
            "authIndexType": "service", "realm": .string(config.realmPath), "sessionId": .string(session.id),
            "exp": .int(Int64(session.deadline)), "iat": .int(Int64(clock.now)),
        ]
        session.authId = JWT(claims: claims).signed(with: signer)
        var callbacks: [JSONValue] = []
        for (position, spec) in page.callbacks.enumerated() {
            let value = position < session.values.count ? session.values[position] : nil
            callbacks.append(CallbackRenderer.render(spec, position: position, value: value, failedPolicies: failures[position]))
        }
        var body: JSONObject = ["authId": .string(session.authId), "callbacks": .array(callbacks)]
        if let stage = page.stage { body["stage"] = .string(stage) }
        if let header = page.header { body["header"] = .string(header) }
        if let description = page.description { body["description"] = .string(description) }
        sessions[session.id] = session
        return ServerReply(status: 200, body: .object(body))
    }

    private func succeed(_ session: Session) -> ServerReply {
        let username = Self.text(session.shared["username"])
        guard let user = users.find(username: username) else {
            return ServerReply(status: 401, body: AMErrors.loginFailure(message: session.failureMessage, detail: session.failureDetail))
        }
        if let lock = user.lock, lock.holds(at: clock.now) { return ServerReply(status: 401, body: AMErrors.userLockedOut) }
        // AM resets failure counts once the user gets through a journey that counts them.
        let prefix = session.journey.name + "/"
        users.update(username: username) { user in
            user.counters = user.counters.filter { !$0.key.hasPrefix(prefix) && $0.key != Self.lockoutModeCounter }
        }
        let successUrl = "/enduser/?realm=\(config.realmPath)"
        if session.noSession {
            return ServerReply(status: 200, body: ["successUrl": .string(successUrl), "realm": .string(config.realmPath)])
        }
        let sso = ssoSessions.create(for: user)
        return ServerReply(
            status: 200,
            body: ["tokenId": .string(sso.tokenId), "successUrl": .string(successUrl), "realm": .string(config.realmPath)],
            headers: ["Set-Cookie": "\(config.cookieName)=\(sso.tokenId); Path=/; HttpOnly"])
    }

    private func suspendJourney(_ session: inout Session, _ suspend: JourneyNode.Suspend) {
        let id = random.string(length: 32, alphabet: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let expires = clock.now + suspend.duration
        let username = Self.text(session.shared["username"])
        let address = users.find(username: username)?.attributes[suspend.emailAttribute]?.stringValue
            ?? session.shared.value(path: "objectAttributes." + suspend.emailAttribute)?.stringValue ?? ""
        outbox.send(Outbox.SuspendLink(
            suspendedId: id, resumeURI: "\(config.baseURL)/XUI/?realm=\(config.realmPath)&suspendedId=\(id)", to: address,
            username: username, journey: session.journey.name, expiresAt: expires))
        suspended[id] = (session, expires)
    }

    func sendCode(_ code: Outbox.OneTimeCode) { outbox.send(code) }

    func internalError(_ what: String, _ session: Session) -> ServerReply {
        logError("journey \(session.journey.name): \(what)")
        return ServerReply(status: 500, body: ["code": 500, "reason": "Internal Server Error", "message": "Internal Server Error"])
    }

    private func pruneExpired() {
        let now = clock.now
        if sessions.count > 64 { sessions = sessions.filter { $0.value.deadline > now } }
        if suspended.count > 64 { suspended = suspended.filter { $0.value.expires > now } }
    }

    static let lockoutModeCounter = "lockoutMode"

    /// Inputs arrive as whatever JSON the client sent; the data store reads them as text.
    static func text(_ value: JSONValue?) -> String {
        switch value {
        case .string(let s)?: return s
        case nil, .null?: return ""
        case let other?: return other.compactText
        }
    }

    /// A choice index as AM reads it: an integer, or a string of one (Flutter sends text).
    static func index(_ value: JSONValue?) -> Int? {
        if let i = value?.intValue, i >= 0 { return Int(i) }
        if let s = value?.stringValue, let i = Int(s), i >= 0 { return i }
        return nil
    }
}

extension JSONObject {
    /// Reads a dotted path (`objectAttributes.givenName`).
    func value(path: String) -> JSONValue? {
        var current: JSONValue = .object(self)
        for key in path.split(separator: ".") {
            guard let next = current[String(key)] else { return nil }
            current = next
        }
        return current
    }

    /// Writes a dotted path, creating objects on the way.
    mutating func set(path: String, to value: JSONValue) {
        let keys = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard let first = keys.first else { return }
        if keys.count == 1 {
            self[first] = value
            return
        }
        var child = self[first]?.objectValue ?? [:]
        child.set(path: keys[1], to: value)
        self[first] = .object(child)
    }
}
