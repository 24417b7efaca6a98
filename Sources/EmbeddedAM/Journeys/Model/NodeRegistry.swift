import AuthBridgeCore

/// The one catalog of node types, for both syntaxes: AM exports name a type by `name`,
/// AuthBridge's journey JSON by `journeyFile.name`. Adding a type is a new file in `Nodes/AM/`
/// (or `Nodes/AuthBridge/`) and a line here. The types AuthBridge's JSON names come first, in
/// the order its unknown-type error lists them.
enum NodeRegistry {
    static let types: [NodeType] = [
        AM.PageNode.type, AM.DataStoreDecisionNode.type, AM.CreateObjectNode.type, AM.RetryLimitDecisionNode.type,
        AM.AccountLockoutNode.type, AM.OneTimePasswordGeneratorNode.type, AM.OneTimePasswordCollectorDecisionNode.type,
        AM.ChoiceCollectorNode.type, AM.PollingWaitNode.type, AM.DeviceProfileCollectorNode.type,
        AM.DeviceSaveNode.type,
        AM.EmailSuspendNode.type,
        AuthBridge.ValueDecisionNode.type, AuthBridge.SetFailureDetailsNode.type, AM.SuccessNode.type,
        AM.FailureNode.type,
        // Only exports name these.
        AM.InnerTreeEvaluatorNode.type, AM.ScenarioNode.scriptedType,
        AM.ValidatedUsernameNode.type, AM.ValidatedPasswordNode.type, AM.UsernameCollectorNode.type,
        AM.PasswordCollectorNode.type,
        AM.AttributeCollectorNode.type, AM.KbaCreateNode.type, AM.AcceptTermsAndConditionsNode.type,
        AM.IdentityStoreDecisionNode.type,
        AM.IncrementLoginCountNode.type, AM.LoginCountDecisionNode.type, AM.AttributePresentDecisionNode.type,
        AM.AttributeValueDecisionNode.type, AM.QueryFilterDecisionNode.type, AM.SessionDataNode.type,
        AM.IdentifyExistingUserNode.type,
        AM.PatchObjectNode.type, AM.MessageNode.type, AM.OneTimePasswordSenderNode.smtpType,
        AM.OneTimePasswordSenderNode.smsType,
        AM.SetSuccessUrlNode.type, AM.ZeroPageLoginNode.type, AM.KbaVerifyNode.type, AM.EmailTemplateNode.type,
        AM.SetPersistentCookieNode.type, AM.PersistentCookieDecisionNode.type, AM.SelectIdPNode.type,
        AM.SocialProviderHandlerNode.type,
        AM.WebAuthnNode.registrationType, AM.WebAuthnNode.authenticationType,
        AM.OathRegistrationNode.type, AM.OathTokenVerifierNode.type, AM.RecoveryCodeDisplayNode.type,
        AM.RecoveryCodeCollectorDecisionNode.type, AM.GetAuthenticatorAppNode.type,
        AM.MultiFactorRegistrationOptionsNode.type, AM.OptOutMultiFactorAuthenticationNode.type,
        AM.DeviceBindingNode.type, AM.DeviceBindingStorageNode.type, AM.DeviceSigningVerifierNode.type,
        AM.PushRegistrationNode.type, AM.PushAuthenticationSenderNode.type, AM.PushWaitNode.type,
        AM.PushResultVerifierNode.type,
        AM.CreatePasswordNode.type, AM.AnonymousUserNode.type, AM.ProvisionDynamicAccountNode.type,
        AM.LdapDecisionNode.type, AM.AgentDataStoreDecisionNode.type, AM.RESTNode.type,
        AM.AmsterJwtDecisionNode.type,
        AM.PingOneProtectInitializeNode.type, AM.PingOneProtectEvaluationNode.type, AM.PingOneProtectResultNode.type,
        AM.PingOneProtectInitializeNode.productType, AM.PingOneProtectEvaluationNode.productType,
        AM.PingOneProtectResultNode.productType,
    ]

    private static let byAMName = Dictionary(
        types.filter { $0.build != nil }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    private static let fileSyntaxes = types.compactMap(\.journeyFile)

    /// The type an export's `nodeType` names.
    static func amType(named name: String) -> NodeType? { byAMName[name] }

    /// The syntax a journey file's `type` names.
    static func fileSyntax(named name: String) -> JourneyFileSyntax? { fileSyntaxes.first { $0.name == name } }

    /// Builds the nodes a journey file's node describes: its type's settings, then its outcomes
    /// by the names the file gives them. A chain (`otpGenerate`) becomes nodes `id`, `id#2`, …
    /// each leading to the next along its one outcome.
    static func node(id: String, json: JSONValue) throws(SettingsError) -> [JourneyDefinition.Node] {
        var s = try Settings(json, what: "a node")
        guard let typeName = try s.string("type") else { throw SettingsError(reason: "\"type\" must name a node type") }
        guard let syntax = fileSyntax(named: typeName) else {
            throw SettingsError(
                reason: "unknown node type \"\(typeName)\" (known: \(fileSyntaxes.map(\.name).joined(separator: ", ")))"
            )
        }
        let chain = try syntax.build(&s)
        let last = chain[chain.count - 1]
        let names = Dictionary(uniqueKeysWithValues: last.outcomes.map { ($0, syntax.outcomeNames[$0] ?? $0) })
        var outcomes: [String: String] = [:]
        if let map = try s.object("outcomes") {
            for member in map.members {
                guard case .string(let target) = member.value else {
                    throw SettingsError(reason: "outcome \"\(member.key)\" must name a node")
                }
                if syntax.retiredOutcomes.contains(member.key) { continue }
                guard let outcome = last.outcomes.first(where: { names[$0] == member.key }) else {
                    let known =
                        last.outcomes.isEmpty ? "none" : last.outcomes.map { names[$0]! }.joined(separator: ", ")
                    throw SettingsError(
                        reason: "a \(typeName) node has no outcome \"\(member.key)\" (its outcomes: \(known))")
                }
                outcomes[outcome] = target
            }
        }
        try s.finish()
        var nodes: [JourneyDefinition.Node] = []
        for (index, node) in chain.enumerated() {
            let nodeId = index == 0 ? id : "\(id)#\(index + 1)"
            let fileNode = index == 0 ? nil : id
            if index == chain.count - 1 {
                nodes.append(
                    JourneyDefinition.Node(
                        id: nodeId, type: typeName, node: node, outcomes: outcomes, outcomeNames: names,
                        fileNode: fileNode))
            } else {
                nodes.append(
                    JourneyDefinition.Node(
                        id: nodeId, type: typeName, node: node, outcomes: [node.outcomes[0]: "\(id)#\(index + 2)"],
                        fileNode: fileNode))
            }
        }
        return nodes
    }
}
