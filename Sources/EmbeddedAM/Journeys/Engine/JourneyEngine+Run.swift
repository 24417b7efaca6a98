import AuthBridgeCore
import IdentityServer

/// The one loop every node goes through: build its context, let it process, keep what it
/// changed, then follow its outcome, send its step, give its reply, or enter an inner tree.
extension JourneyEngine {
    /// Runs the journey to its next step or end, and notes what the request concerned: the
    /// journey and, once a node has read it, the user (`EmbeddedAM.takeConcern`).
    func run(_ session: inout JourneySession, at start: String, entry first: NodeContext.Entry) -> ServerReply {
        let reply = runNodes(&session, at: start, entry: first)
        let username = JourneyValues.text(session.shared["username"])
        concern = UnitConcern(user: username.isEmpty ? nil : username, journey: session.journey.name)
        return reply
    }

    private func runNodes(
        _ session: inout JourneySession, at start: String, entry first: NodeContext.Entry
    )
        -> ServerReply
    {
        var nodeId = start
        var entry = first
        var hops = 0
        /// The last outcome taken: where a failure came from.
        var last: (node: JourneyFailure.NodeRef, outcome: String)?
        while true {
            // The node that was answered or resumed is not a hop; every node reached along an
            // outcome is.
            if entry == .arrived {
                hops += 1
                if hops > Self.maxHops { break }
            }
            // An inner tree that reaches its success or failure returns to the evaluator that
            // entered it, as that node's `true` or `false` (AM's Inner Tree Evaluator).
            if entry == .arrived, let success = session.current.ends[nodeId], let frame = session.frames.popLast() {
                let inner = session.current.name
                session.current = frame.journey
                guard let evaluator = session.current.nodes[frame.evaluator],
                    let next = evaluator.outcomes[success ? "true" : "false"]
                else { return internalError("inner tree evaluator \(frame.evaluator) has no outcome", session) }
                if !success { session.lastReason = (Self.innerFailure(inner, session.lastReason), evaluator.ref) }
                nodeId = next
                continue
            }
            guard let node = session.current.nodes[nodeId] else { break }
            var context = context(for: session, node: nodeId, entry: entry)
            let action = node.node.process(&context)
            keep(context, in: &session)
            if let reason = context.failureReason { session.lastReason = (reason, node.ref) }
            switch action {
            case .outcome(let outcome):
                guard let next = node.outcomes[outcome] else {
                    return internalError("node \(nodeId) has no outcome \(outcome)", session)
                }
                last = (node.ref, node.outcomeNames[outcome] ?? outcome)
                nodeId = next
                entry = .arrived
            case .send(let step):
                session.node = nodeId
                if let suspension = context.suspension { suspended[suspension.id] = (session, suspension.expires) }
                return send(step, &session)
            case .reply(let reply):
                if reply.status == 401 { failed(session, at: last ?? (node.ref, nil)) }
                return reply
            case .enterTree(let name):
                // Loaders check inner trees exist and do not loop; a journey replaced since is
                // caught here.
                guard let inner = journeys.named(name), session.frames.count < Self.maxFrames else {
                    return internalError("node \(nodeId) cannot enter the inner tree \(name)", session)
                }
                session.frames.append((session.current, nodeId))
                session.current = inner
                nodeId = inner.entry
                entry = .arrived
            }
        }
        // AM cuts a tree that never asks for input off with its failure; the log says where.
        logError(
            "journey \(session.journey.name): no step or end within \(Self.maxHops) nodes (last: \(session.current.name) node \(nodeId)); a loop without input"
        )
        var looped = session
        looped.lastReason = (
            JourneyFailure.Reason("loop_without_input", "no step or end within \(Self.maxHops) nodes"),
            session.current.nodes[nodeId]?.ref ?? JourneyFailure.NodeRef(id: nodeId, type: "?", name: nil)
        )
        failed(looped, at: last.map { ($0.node, $0.outcome) } ?? (nil, nil))
        return ServerReply(status: 401, body: AMErrors.loginFailure)
    }

    /// An inner tree that ended in failure: the evaluator's reason names it, with the inner
    /// tree's own last reason (which may be nil when no inner node gave one).
    static func innerFailure(
        _ inner: String, _ last: (reason: JourneyFailure.Reason, node: JourneyFailure.NodeRef)?
    ) -> JourneyFailure.Reason {
        var fields: JSONObject = ["journey": .string(inner)]
        if let last {
            var innerReason: JSONObject = ["code": .string(last.reason.code), "message": .string(last.reason.message)]
            for field in last.reason.fields.members { innerReason[field.key] = field.value }
            innerReason["node"] = .object(last.node.json)
            fields["innerReason"] = .object(innerReason)
        }
        return JourneyFailure.Reason(
            "inner_journey_failed",
            "the inner journey \(inner) ended in failure" + (last.map { ": \($0.reason.message)" } ?? ""), fields)
    }

    /// Records why the journey failed, logs it at info and traces it.
    private func failed(_ session: JourneySession, at end: (node: JourneyFailure.NodeRef?, outcome: String?)) {
        let username = JourneyValues.text(session.shared["username"])
        record(
            JourneyFailure(
                journey: session.journey.name, node: end.node, outcome: end.outcome,
                reason: session.lastReason?.reason, reasonNode: session.lastReason?.node,
                username: username.isEmpty ? nil : username, at: clock.now))
    }

    /// Keeps a failure for `emulator.lastFailure`, logs it at info and traces it: a journey's
    /// end in failure, or a request AM refuses before any node runs (an authId that timed out,
    /// a suspended link that expired).
    func record(_ failure: JourneyFailure) {
        lastFailure = failure
        if concern == nil { concern = UnitConcern(user: failure.username, journey: failure.journey) }
        logInfo(failure.logLine)
        // Stamped with the wall clock, as the trace's requests and responses are.
        Log.shared.trace(
            "\(ISO8601.formatMillis(SystemClock().now)) journey-failure \(JSONWriter.compact(.object(failure.json)))")
    }

    private func context(for session: JourneySession, node: String, entry: NodeContext.Entry) -> NodeContext {
        NodeContext(
            nodeId: node, journeyName: session.current.name, entry: entry, shared: session.shared,
            transient: session.transient,
            nodeState: session.nodeStates[session.stateKey(node)] ?? [:], failureMessage: session.failureMessage,
            failureDetail: session.failureDetail, suspension: nil, noSession: session.noSession, users: users,
            sessions: ssoSessions, push: push,
            clock: clock, random: random, config: config, outbox: outbox, scenario: scenario,
            ssoToken: session.ssoToken,
            socialProviders: socialProviders, requestParameters: requestParameters
        )
    }

    private func keep(_ context: NodeContext, in session: inout JourneySession) {
        session.shared = context.shared
        session.transient = context.transient
        session.nodeStates[session.stateKey(context.nodeId)] = context.nodeState.count > 0 ? context.nodeState : nil
        session.failureMessage = context.failureMessage
        session.failureDetail = context.failureDetail
        outbox = context.outbox
    }

    /// Every step gets a fresh authId: a signed JWT naming the session, with a random `otk` so
    /// that no two are alike.
    private func send(_ step: Step, _ session: inout JourneySession) -> ServerReply {
        let claims: JSONObject = [
            "otk": .string(Base64URL.encode(random.bytes(16))), "authIndexValue": .string(session.journey.name),
            "authIndexType": "service", "realm": .string(config.realmPath), "sessionId": .string(session.id),
            "exp": .int(Int64(session.deadline)), "iat": .int(Int64(clock.now)),
        ]
        session.authId = JWT(claims: claims).signed(with: signer)
        session.step = step
        activity += 1
        session.lastActive = activity
        sessions[session.id] = session
        return ServerReply(status: 200, body: StepRenderer.render(step, authId: session.authId))
    }

    func internalError(_ what: String, _ session: JourneySession) -> ServerReply {
        logError("journey \(session.journey.name): \(what)")
        return ServerReply(
            status: 500, body: ["code": 500, "reason": "Internal Server Error", "message": "Internal Server Error"])
    }
}
