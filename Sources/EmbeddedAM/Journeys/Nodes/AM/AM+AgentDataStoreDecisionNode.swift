import AuthBridgeCore

extension AM {
    /// AM's Agent Data Store Decision (`ForgeRock/am-external`
    /// auth-nodes/…/AgentDataStoreDecisionNode.java): the Data Store Decision against the realm's
    /// agent identities instead of its users. `username` and the transient password against
    /// `EmbeddedAMConfig.agents` (one test agent, `web-agent`): `true` or `false`. On `true` the
    /// agent is the journey's identity, so Success gives the agent its session.
    struct AgentDataStoreDecisionNode: JourneyNode {
        static let type = NodeType(name: "AgentDataStoreDecisionNode", asksForInput: false) {
            (_: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(AgentDataStoreDecisionNode())
        }

        /// Transient state: the agent this journey authenticated, which Success signs in.
        static let identifiedAgent = "identifiedAgent"

        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            let name = context.username
            let password = Array(context.password.utf8)
            // Agent names match case-insensitively, as AM's identity repository matches names.
            guard let agent = context.config.agents.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                context.failureReason = JourneyFailure.Reason(
                    "unknown_agent", "no agent \(name.isEmpty ? "(none given)" : name) in the realm")
                return .outcome("false")
            }
            guard !password.isEmpty, HMACSHA256.equal(Array(agent.password.utf8), password) else {
                context.failureReason = JourneyFailure.Reason(
                    "wrong_agent_password", "the password given for the agent \(agent.name) is wrong")
                return .outcome("false")
            }
            context.transient[Self.identifiedAgent] = .string(agent.name)
            return .outcome("true")
        }

        /// The session's principal for an agent Success signs in: agents are not directory users.
        static func principal(_ context: NodeContext) -> DirectoryUser? {
            guard let name = context.transient[identifiedAgent]?.stringValue, name == context.username else {
                return nil
            }
            return DirectoryUser(
                id: "agent:\(name)", username: name, password: PasswordHash(salt: [], iterations: 0, digest: []),
                attributes: [:])
        }
    }
}
