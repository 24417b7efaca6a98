import AuthBridgeCore
import IdentityServer

/// Runs journeys for `/authenticate`: starts them by name, answers each step with a fresh
/// authId, hands the client's answers to the node that asked, and ends in a session or AM's 401.
/// An authId is good for one answer; a replayed one, or any once the journey's time is up, gets
/// "Session has timed out" (errorCode 110). Suspended journeys wait under their suspendedId.
/// The engine knows no node type: every node is a `JourneyNode` it runs the same way
/// (`JourneyEngine+Run.swift`).
final class JourneyEngine {
    var journeys = JourneyCatalog(builtIns: BuiltInJourneys.all)
    var sessions: [String: JourneySession] = [:]
    var suspended: [String: (session: JourneySession, expires: Double)] = [:]
    /// Journeys in progress and suspended stay bounded: abandoned ones are forgotten once past
    /// their time, and at most `config.retentionCap` are kept (the longest abandoned go first; their authId
    /// then meets "Session has timed out", as in AM).
    var activity: UInt64 = 0
    private lazy var pendingPruning = Pruning(cap: config.retentionCap)
    private lazy var suspendedPruning = Pruning(cap: config.retentionCap)
    var outbox = Outbox()
    let config: EmbeddedAMConfig
    let users: UserDirectory
    let ssoSessions: SessionStore
    let push: PushService
    let clock: Clock
    let random: RandomSource
    /// Chooses outcomes for nodes that cannot be run here (see `JourneyScenario`).
    var scenario: (any JourneyScenario)?
    /// The last journey that ended in failure, and why (`emulator.lastFailure`); not saved.
    var lastFailure: JourneyFailure?
    /// The journey (and its user, once known) the last request ran; taken by `EmbeddedAM.takeConcern`.
    var concern: UnitConcern?
    /// The emulated social providers, reached by the Social Provider Handler node at their URLs.
    var socialProviders: EmulatedSocialProviders?
    /// The query parameters of the request being answered (AM's `context.request.parameters`).
    private(set) var requestParameters: [String: String] = [:]
    let signer: HMACSHA256.Key
    static let maxHops = 256
    /// How deep inner trees may nest at run time (loaders refuse loops; this bounds the rest).
    static let maxFrames = 32

    init(
        config: EmbeddedAMConfig, users: UserDirectory, sessions: SessionStore, push: PushService, clock: Clock,
        random: RandomSource
    ) {
        self.config = config
        self.users = users
        self.ssoSessions = sessions
        self.push = push
        self.clock = clock
        self.random = random
        self.signer = HMACSHA256.Key(random.bytes(32))
    }

    func add(_ journey: JourneyDefinition) { journeys.add(journey) }

    func authenticate(_ request: AuthenticateRequest) -> ServerReply {
        // A link followed after its time is pruned below; what it was is kept to say why it fails.
        let link = request.suspendedId.flatMap { suspended[$0] }
        pruneExpired()
        requestParameters = request.parameters
        if let payload = request.payload, case .string(let authId)? = payload["authId"] {
            return answer(authId: authId, payload: payload)
        }
        if let suspendedId = request.suspendedId { return resume(suspendedId: suspendedId, link: link) }
        let type = request.authIndexType ?? "service"
        guard type == "service" else {
            return ServerReply(status: 400, body: AMErrors.badRequest("Unsupported authIndexType: \(type)"))
        }
        let name = request.authIndexValue ?? "Login"
        guard let journey = journeys.named(name) else {
            return ServerReply(status: 400, body: AMErrors.badRequest("No configuration found"))
        }
        if let existing = sessionSatisfying(request, journey: name) {
            return ServerReply(
                status: 200,
                body: [
                    "tokenId": .string(existing.tokenId), "successUrl": .string(config.defaultSuccessUrl),
                    "realm": .string(config.realmPath),
                ])
        }
        var session = JourneySession(
            id: random.uuid().lowercased(), journey: journey, deadline: clock.now + journey.timeout,
            noSession: request.noSession)
        session.ssoToken = request.ssoToken
        return run(&session, at: journey.entry, entry: .arrived)
    }

    /// The caller's session, when it already satisfies the journey it starts: AM then answers it
    /// without authenticating again. It does not for a journey the session has not completed (a
    /// session upgrade: the journey runs, and reads the session through Get Session Data), nor
    /// with `ForceAuth=true`, nor with `noSession=true`, which asks for the journey's outcome
    /// rather than a session.
    private func sessionSatisfying(_ request: AuthenticateRequest, journey: String) -> SSOSession? {
        guard !request.forceAuth, !request.noSession, let token = request.ssoToken,
            let session = ssoSessions.find(token), session.journeys.contains(journey),
            // AM's use of the session: its idle time starts again.
            let used = ssoSessions.use(token)
        else { return nil }
        return used
    }

    /// The client's answers go back to the node that sent the step. An answer no callback
    /// accepts is AM's 400, and the step stays open.
    private func answer(authId: String, payload: JSONValue) -> ServerReply {
        guard let jwt = try? JWT.verify(authId, with: signer),
            case .string(let sessionId)? = jwt.claims["sessionId"],
            var session = sessions[sessionId], session.authId == authId, clock.now < session.deadline,
            session.current.nodes[session.node] != nil, let step = session.step
        else {
            timedOut(authId)
            return ServerReply(status: 401, body: AMErrors.sessionTimedOut)
        }
        sessions[sessionId] = nil
        switch CallbackAnswer.checked(CallbackAnswer.answers(to: step, in: payload), for: step.callbacks) {
        case .failure(let invalid):
            sessions[sessionId] = session
            return ServerReply(status: 400, body: AMErrors.badRequest(invalid.message))
        case .success(let answers):
            return run(&session, at: session.node, entry: .answered(answers))
        }
    }

    private func resume(suspendedId: String, link: (session: JourneySession, expires: Double)?) -> ServerReply {
        guard let entry = suspended[suspendedId], clock.now < entry.expires else {
            suspended[suspendedId] = nil
            let expired = link.map { $0.expires <= clock.now } ?? false
            let username = link.map { JourneyValues.text($0.session.shared["username"]) } ?? ""
            record(
                JourneyFailure(
                    journey: link?.session.journey.name ?? "(unknown)", node: nil, outcome: nil,
                    reason: expired
                        ? JourneyFailure.Reason("suspended_link_expired", "the suspended journey's link has expired")
                        : JourneyFailure.Reason(
                            "suspended_link_unknown", "no suspended journey has that id (never made, or used already)"),
                    reasonNode: link.flatMap { $0.session.current.nodes[$0.session.node]?.ref },
                    username: username.isEmpty ? nil : username, at: clock.now))
            return ServerReply(status: 401, body: AMErrors.suspendedIdNotFound)
        }
        suspended[suspendedId] = nil
        var session = entry.session
        sessions[session.id] = nil
        session.deadline = clock.now + session.journey.timeout
        return run(&session, at: session.node, entry: .resumed)
    }

    /// An answer AM refuses with "Session has timed out": the journey's time was up, or the
    /// authId was answered already (or replaced by a later step). The authId's own claims say
    /// which journey; one this engine did not sign names none.
    private func timedOut(_ authId: String) {
        guard let jwt = try? JWT.verify(authId, with: signer) else {
            record(
                JourneyFailure(
                    journey: "(unknown)", node: nil, outcome: nil,
                    reason: JourneyFailure.Reason("auth_id_invalid", "the authId is not one this server issued"),
                    reasonNode: nil, username: nil, at: clock.now))
            return
        }
        let session = jwt.claims["sessionId"]?.stringValue.flatMap { sessions[$0] }
        let expiry = jwt.claims["exp"]?.doubleValue ?? 0
        let reason =
            clock.now >= expiry
            ? JourneyFailure.Reason("session_timed_out", "the journey's time was up before this answer came")
            : JourneyFailure.Reason(
                "auth_id_used", "the authId was answered already, or a later step replaced it")
        let username = session.map { JourneyValues.text($0.shared["username"]) } ?? ""
        record(
            JourneyFailure(
                journey: session?.journey.name ?? jwt.claims["authIndexValue"]?.stringValue ?? "(unknown)", node: nil,
                outcome: nil, reason: reason, reasonNode: session.flatMap { $0.current.nodes[$0.node]?.ref },
                username: username.isEmpty ? nil : username, at: clock.now))
    }

    private func pruneExpired() {
        let now = clock.now
        pendingPruning.run(&sessions, expired: { $0.deadline <= now }, rank: { Double($0.lastActive) })
        suspendedPruning.run(&suspended, expired: { $0.expires <= now }, rank: { $0.expires })
    }
}
