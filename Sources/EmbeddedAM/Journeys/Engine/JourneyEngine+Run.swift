import AuthBridgeCore
import IdentityServer

/// The one loop every node goes through: build its context, let it process, keep what it
/// changed, then follow its outcome, send its step, or give its reply.
extension JourneyEngine {
    func run(_ session: inout JourneySession, at start: String, entry first: NodeContext.Entry) -> ServerReply {
        var nodeId = start
        var entry = first
        var hops = 0
        while true {
            // The node that was answered or resumed is not a hop; every node reached along an
            // outcome is.
            if entry == .arrived {
                hops += 1
                if hops > Self.maxHops { break }
            }
            guard let node = session.journey.nodes[nodeId] else { break }
            var context = context(for: session, node: nodeId, entry: entry)
            let action = node.node.process(&context)
            keep(context, in: &session)
            switch action {
            case .outcome(let outcome):
                guard let next = node.outcomes[outcome] else { return internalError("node \(nodeId) has no outcome \(outcome)", session) }
                nodeId = next
                entry = .arrived
            case .send(let step):
                session.node = nodeId
                if let suspension = context.suspension { suspended[suspension.id] = (session, suspension.expires) }
                return send(step, &session)
            case .reply(let reply):
                return reply
            }
        }
        return internalError("did not reach a step or an end within \(Self.maxHops) nodes", session)
    }

    private func context(for session: JourneySession, node: String, entry: NodeContext.Entry) -> NodeContext {
        NodeContext(
            nodeId: node, journeyName: session.journey.name, entry: entry, shared: session.shared, transient: session.transient,
            nodeState: session.nodeStates[node] ?? [:], failureMessage: session.failureMessage, failureDetail: session.failureDetail,
            suspension: nil, noSession: session.noSession, users: users, sessions: ssoSessions, clock: clock, random: random,
            config: config, outbox: outbox, scenario: scenario)
    }

    private func keep(_ context: NodeContext, in session: inout JourneySession) {
        session.shared = context.shared
        session.transient = context.transient
        session.nodeStates[context.nodeId] = context.nodeState.count > 0 ? context.nodeState : nil
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
        sessions[session.id] = session
        return ServerReply(status: 200, body: StepRenderer.render(step, authId: session.authId))
    }

    func internalError(_ what: String, _ session: JourneySession) -> ServerReply {
        logError("journey \(session.journey.name): \(what)")
        return ServerReply(status: 500, body: ["code": 500, "reason": "Internal Server Error", "message": "Internal Server Error"])
    }
}
