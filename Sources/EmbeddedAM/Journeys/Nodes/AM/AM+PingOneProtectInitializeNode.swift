import AuthBridgeCore

extension AM {
    /// AM's PingOne Protect Initialize node (`PingOneProtectInitializeNode`; Identity Cloud
    /// exports name it `product-PingOneProtectInitializeNode`): it sends a
    /// PingOneProtectInitializeCallback with the Signals SDK's settings, then goes `true` when
    /// the client's `clientError` is empty and `false` when the client says it could not start
    /// the SDK. `envId` is the PingOne worker's environment; AuthBridge has no worker service, so
    /// the callback carries the `pingOneWorker` reference as the export writes it.
    struct PingOneProtectInitializeNode: JourneyNode {
        static let type = NodeType(name: "PingOneProtectInitializeNode", build: build)
        static let productType = NodeType(name: "product-PingOneProtectInitializeNode", build: build)

        private static let build: @Sendable (inout Settings, AMNodeSource) throws(SettingsError) -> AMBuilt = {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(PingOneProtectInitializeNode(settings: try signalsSettings(&s)))
        }

        static func signalsSettings(_ s: inout Settings) throws(SettingsError) -> ProtectSignalsSettings {
            var settings = ProtectSignalsSettings(envId: try s.string("pingOneWorker") ?? "")
            settings.consoleLogEnabled = try s.bool("consoleLogEnabled", default: false)
            settings.deviceAttributesToIgnore = try s.strings("deviceAttributesToIgnore", nonEmpty: false) ?? []
            settings.customHost = try s.string("customHost") ?? ""
            settings.lazyMetadata = try s.bool("lazyMetadata", default: false)
            settings.behavioralDataCollection = try s.bool("behavioralDataCollection", default: true)
            settings.deviceKeyRsyncIntervals = try s.int("deviceKeyRsyncIntervals", default: 14, in: 0...3650)
            settings.enableTrust = try s.bool("enableTrust", default: false)
            settings.disableTags = try s.bool("disableTags", default: false)
            settings.disableHub = try s.bool("disableHub", default: false)
            return settings
        }

        var settings: ProtectSignalsSettings
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let answers = context.answers else {
                return .send(Step(callbacks: [.pingOneProtectInitialize(settings)]))
            }
            let clientError = JourneyValues.text(answers.first?.inputs["clientError"])
            return .outcome(clientError.isEmpty ? "true" : "false")
        }
    }

    /// AM's PingOne Protect Result node (`PingOneProtectResultNode`): it tells PingOne how the
    /// evaluation the Evaluation node started ended (`status` SUCCESS or FAILED), so the risk
    /// model learns. AuthBridge calls no PingOne: it notes the status in shared state beside the
    /// evaluation's id and goes on (one outcome).
    struct PingOneProtectResultNode: JourneyNode {
        static let type = NodeType(name: "PingOneProtectResultNode", asksForInput: false, build: build)
        static let productType = NodeType(name: "product-PingOneProtectResultNode", asksForInput: false, build: build)

        private static let build: @Sendable (inout Settings, AMNodeSource) throws(SettingsError) -> AMBuilt = {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let status = try s.string("status", default: "SUCCESS")
            guard ["SUCCESS", "FAILED"].contains(status) else {
                throw SettingsError(reason: "\"status\" must be SUCCESS or FAILED, got \(status)")
            }
            return .node(PingOneProtectResultNode(status: status))
        }

        static let statusKey = "PingOneProtectResultNode.status"

        var status: String
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            if context.shared[PingOneProtectEvaluationNode.evaluationIdKey] != nil {
                context.shared[Self.statusKey] = .string(status)
            }
            return .outcome("outcome")
        }
    }
}
