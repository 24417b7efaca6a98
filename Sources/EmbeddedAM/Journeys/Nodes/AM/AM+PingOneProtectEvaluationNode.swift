import AuthBridgeCore

extension AM {
    /// AM's PingOne Protect Evaluation node (`PingOneProtectEvaluationNode`; Identity Cloud
    /// exports name it `product-PingOneProtectEvaluationNode`). It sends a
    /// PingOneProtectEvaluationCallback (`pauseBehavioralData`); a non-empty `clientError` in the
    /// answer is its `clientError` outcome. Otherwise AM posts the signals to PingOne's risk
    /// evaluation and routes on the reply: a score over `scoreThreshold` → `exceed`, else a
    /// `recommendedAction` it lists → that action, else the level → `high`/`medium`/`low`; no
    /// reply → `failure`. AuthBridge cannot call PingOne: the scenario chooses the outcome, as it
    /// does for a Scripted Decision node (`--scenario`, `emulator.setNodeOutcome`). Without a
    /// choice it takes `failure`, as AM does when PingOne does not answer, and logs how to choose.
    /// An evaluation that happened leaves its id in shared state for the Result node, and with
    /// `storeEvaluateResult` the risk (its level) in transient state.
    struct PingOneProtectEvaluationNode: JourneyNode {
        static let type = NodeType(name: "PingOneProtectEvaluationNode", build: build)
        static let productType = NodeType(name: "product-PingOneProtectEvaluationNode", build: build)

        private static let build: @Sendable (inout Settings, AMNodeSource) throws(SettingsError) -> AMBuilt = {
            (s: inout Settings, source: AMNodeSource) throws(SettingsError) in
            let threshold = try s.string("scoreThreshold", default: "300")
            guard Double(threshold) != nil else {
                throw SettingsError(reason: "\"scoreThreshold\" must be a decimal number, got \(threshold)")
            }
            try choice(&s, "flowType", ["REGISTRATION", "AUTHENTICATION", "ACCESS", "AUTHORIZATION", "TRANSACTION"])
            try choice(&s, "deviceSharingType", ["UNSPECIFIED", "SHARED", "PRIVATE"])
            try choice(&s, "userType", ["PING_ONE", "EXTERNAL"])
            for key in ["targetResourceID", "riskPolicySetID", "userId", "username"] { _ = try s.string(key) }
            let actions = try s.strings("recommendedActions", nonEmpty: false) ?? []
            guard Set(actions).count == actions.count, Set(actions).isDisjoint(with: fixedOutcomes) else {
                throw SettingsError(
                    reason:
                        "\"recommendedActions\" must be distinct and none of \(fixedOutcomes.joined(separator: ", "))")
            }
            return .node(
                PingOneProtectEvaluationNode(
                    nodeId: source.nodeId, displayName: source.displayName,
                    worker: try s.string("pingOneWorker") ?? "", recommendedActions: actions,
                    pauseBehavioralData: try s.bool("pauseBehavioralData", default: true),
                    storeEvaluateResult: try s.bool("storeEvaluateResult", default: false)))
        }

        private static func choice(_ s: inout Settings, _ key: String, _ values: [String]) throws(SettingsError) {
            guard let value = try s.string(key) else { return }
            guard values.contains(value) else {
                throw SettingsError(reason: "\"\(key)\" must be one of \(values.joined(separator: ", ")), got \(value)")
            }
        }

        static let fixedOutcomes = ["high", "medium", "low", "exceed", "failure", "clientError"]
        /// AM's state keys (`PingOneProtectEvaluationNode.StateKey`).
        static let evaluationIdKey = "PingOneProtectEvaluationNode.riskEvalID"
        static let workerKey = "PingOneProtectEvaluationNode.worker"
        static let riskKey = "PingOneProtectEvaluationNode.RISK"

        var nodeId: String
        var displayName: String?
        var worker: String
        var recommendedActions: [String]
        var pauseBehavioralData: Bool
        var storeEvaluateResult: Bool

        var outcomes: [String] {
            ["high", "medium", "low", "exceed", "failure"] + recommendedActions + ["clientError"]
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let answers = context.answers else {
                return .send(Step(callbacks: [.pingOneProtectEvaluation(pauseBehavioralData: pauseBehavioralData)]))
            }
            if !JourneyValues.text(answers.first?.inputs["clientError"]).isEmpty { return .outcome("clientError") }
            guard
                let outcome = context.scenario?.choice(
                    journey: context.journeyName, node: nodeId, displayName: displayName)?.outcome,
                outcomes.contains(outcome), outcome != "clientError"
            else {
                let name = displayName.map { " \"\($0)\"" } ?? ""
                logWarn(
                    "journey \(context.journeyName), node \(nodeId)\(name) (PingOneProtectEvaluationNode): no risk chosen, so no evaluation, as when PingOne does not answer: outcome failure. Choose one of \(outcomes.dropLast().joined(separator: ", ")) in a --scenario file or with emulator.setNodeOutcome {journey, node, outcome}"
                )
                return .outcome("failure")
            }
            if outcome != "failure" {
                let id = context.random.uuid().lowercased()
                context.shared[Self.evaluationIdKey] = .string(id)
                context.shared[Self.workerKey] = .string(worker)
                if storeEvaluateResult, ["high", "medium", "low"].contains(outcome) {
                    context.transient[Self.riskKey] = [
                        "id": .string(id), "result": ["level": .string(outcome.uppercased())],
                    ]
                }
            }
            return .outcome(outcome)
        }
    }
}
