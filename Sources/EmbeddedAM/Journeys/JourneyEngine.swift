import AuthBridgeCore
import IdentityServer

/// Runs journeys for `/authenticate`: starts them by name, answers each step with a fresh
/// authId, follows node outcomes, and ends in a session or AM's 401. An authId is good for one
/// answer: a replayed or expired one gets AM's "Session has timed out" (errorCode 110).
final class JourneyEngine {
    private struct Session {
        var id: String
        var journey: JourneyDefinition
        var node: String
        var shared: JSONObject
        var authId: String
        var expires: Double
        var noSession: Bool
        /// What the client last typed per callback position, shown again when a page repeats.
        var values: [JSONValue?]
    }

    private(set) var journeys: [String: JourneyDefinition] = [:]
    private var sessions: [String: Session] = [:]
    private let config: EmbeddedAMConfig
    private let users: UserDirectory
    private let ssoSessions: SessionStore
    private let clock: Clock
    private let random: RandomSource
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
        if request.suspendedId != nil {
            return ServerReply(status: 401, body: [
                "code": 401, "reason": "Unauthorized",
                "message": "org.forgerock.openam.auth.nodes.framework.token.SuspendedAuthSessionException: Token not found. It may have expired.",
            ])
        }
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
            expires: 0, noSession: request.noSession, values: [])
        return run(&session, from: journey.entry)
    }

    private func answer(authId: String, payload: JSONValue) -> ServerReply {
        guard let jwt = try? JWT.verify(authId, with: signer),
            case .string(let sessionId)? = jwt.claims["sessionId"],
            var session = sessions[sessionId], session.authId == authId, clock.now < session.expires
        else {
            return ServerReply(status: 401, body: AMErrors.sessionTimedOut)
        }
        sessions[sessionId] = nil
        guard case .page(let page)? = session.journey.nodes[session.node]?.kind else {
            return ServerReply(status: 401, body: AMErrors.sessionTimedOut)
        }
        let submitted = payload["callbacks"]?.arrayValue ?? []
        var validateOnly = false
        var failures: [[String]] = []
        var values: [JSONValue?] = []
        let evaluator = PolicyEvaluator(users: users)
        for (position, spec) in page.callbacks.enumerated() {
            let answer = CallbackRenderer.answer(in: position < submitted.count ? submitted[position] : nil, position: position)
            validateOnly = validateOnly || answer.validateOnly
            let text = Self.text(answer.value)
            if spec.kind.hasInput, let path = spec.sharedState {
                session.shared.set(path: path, to: .string(text))
            }
            values.append(spec.kind == .password || spec.kind == .validatedPassword ? nil : answer.value.map { .string(Self.text($0)) })
            failures.append([])
        }
        var anyFailure = false
        for (position, spec) in page.callbacks.enumerated() where spec.kind.isValidated {
            let text = spec.sharedState.flatMap { session.shared.value(path: $0)?.stringValue } ?? ""
            failures[position] = evaluator.failures(for: spec, value: text, sharedState: session.shared)
            anyFailure = anyFailure || !failures[position].isEmpty
        }
        session.values = values
        if validateOnly || anyFailure {
            return issueStep(&session, page: page, failures: failures)
        }
        return run(&session, from: session.journey.nodes[session.node]!.outcomes["next"]!)
    }

    private func run(_ session: inout Session, from start: String) -> ServerReply {
        var nodeId = start
        for _ in 0..<Self.maxHops {
            guard let node = session.journey.nodes[nodeId] else { break }
            switch node.kind {
            case .page(let page):
                if nodeId != session.node { session.values = [] }
                session.node = nodeId
                return issueStep(&session, page: page, failures: page.callbacks.map { _ in [] })
            case .dataStoreDecision:
                let username = session.shared["username"]?.stringValue ?? ""
                let password = session.shared["password"]?.stringValue ?? ""
                let ok = users.verify(username: username, password: password) != nil
                nodeId = node.outcomes[ok ? "true" : "false"]!
            case .createObject:
                let username = session.shared["username"]?.stringValue ?? ""
                let password = session.shared["password"]?.stringValue ?? ""
                let attributes = session.shared["objectAttributes"]?.objectValue ?? [:]
                let created = (try? users.add(username: username, password: password, attributes: attributes)) != nil
                nodeId = node.outcomes[created ? "created" : "failed"]!
            case .success:
                return succeed(session)
            case .failure:
                return ServerReply(status: 401, body: AMErrors.loginFailure)
            }
        }
        logError("journey \(session.journey.name) did not reach a page or an end within \(Self.maxHops) nodes")
        return ServerReply(status: 500, body: ["code": 500, "reason": "Internal Server Error", "message": "Internal Server Error"])
    }

    private func issueStep(_ session: inout Session, page: PageSpec, failures: [[String]]) -> ServerReply {
        let now = clock.now
        session.expires = now + config.authIdLifetime
        let claims: JSONObject = [
            "otk": .string(Base64URL.encode(random.bytes(16))), "authIndexValue": .string(session.journey.name),
            "authIndexType": "service", "realm": .string(config.realmPath), "sessionId": .string(session.id),
            "exp": .int(Int64(session.expires)), "iat": .int(Int64(now)),
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
        let username = session.shared["username"]?.stringValue ?? ""
        guard let user = users.find(username: username) else {
            return ServerReply(status: 401, body: AMErrors.loginFailure)
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

    private func pruneExpired() {
        guard sessions.count > 64 else { return }
        let now = clock.now
        sessions = sessions.filter { $0.value.expires > now }
    }

    /// Inputs arrive as whatever JSON the client sent; the data store reads them as text.
    private static func text(_ value: JSONValue?) -> String {
        switch value {
        case .string(let s)?: return s
        case nil, .null?: return ""
        case let other?: return other.compactText
        }
    }
}

extension JSONObject {
    /// Reads a dotted path (`objectAttributes.givenName`).
    func value(path: String) -> JSONValue? {
        let keys = path.split(separator: ".").map(String.init)
        var current: JSONValue = .object(self)
        for key in keys {
            guard let next = current[key] else { return nil }
            current = next
        }
        return current
    }

    /// Writes a dotted path, creating objects on the way.
    mutating func set(path: String, to value: JSONValue) {
        let keys = path.split(separator: ".").map(String.init)
        guard let first = keys.first else { return }
        if keys.count == 1 {
            self[first] = value
            return
        }
        var child = self[first]?.objectValue ?? [:]
        child.set(path: keys.dropFirst().joined(separator: "."), to: value)
        self[first] = .object(child)
    }
}
