import AuthBridgeCore
import EmbeddedAM
import IdentityServer

extension PingOne {
    /// The most connector steps one request may run before a form: a flow that loops without
    /// one is refused rather than run forever.
    static let stepLimit = 100

    /// A form's answer posted to its `_links.next.href`: `{id, eventName, interactionId,
    /// parameters: {eventType, data: {actionKey, formData}}}` with the interaction in the
    /// `interactionId`/`interactionToken` headers (ping-javascript-sdk `davinci.api.ts` `next`,
    /// `davinci.utils.ts` `transformSubmitRequest`) or, from the native SDKs, in cookies
    /// (ping-ios-sdk `Davinci/Davinci/module/Connector.swift` sends the body alone).
    func proceed(_ request: PingOneRequest) -> ServerReply {
        let headers = request.headers
        let body = request.json ?? .null
        let id =
            headers["interactionid"] ?? body["interactionId"]?.stringValue ?? Self.cookie("interactionId", in: headers)
        let token = headers["interactiontoken"] ?? Self.cookie("interactionToken", in: headers) ?? ""
        guard let id, var interaction = interactions[id], ConstantTime.equal(token, interaction.token) else {
            return PingOneReplies.timedOut(self)
        }
        guard let node = interaction.flow.nodes[interaction.form], case .form(let form) = node.kind else {
            return PingOneReplies.timedOut(self)
        }
        let data = body["parameters"]?["data"]
        let eventType = body["parameters"]?["eventType"]?.stringValue ?? "submit"
        let formData = data?["formData"]?.objectValue ?? [:]
        let actionKey = data?["actionKey"]?.stringValue ?? ""
        let outcome = actionKey.isEmpty ? Self.defaultAction(of: form) : actionKey
        guard let target = node.next[outcome] ?? node.next["*"] else {
            return reply(
                error: .validation([
                    ErrorDetail(
                        code: "INVALID_VALUE", target: "actionKey", message: "No action \(outcome) on this form")
                ]), in: interaction)
        }
        if eventType != "action" {
            var problems: [ErrorDetail] = []
            for field in form.fields where field.collector.kind == .value {
                let shown = interaction.shownFields[field.key] ?? field.json
                problems += field.collector.problems(formData[field.key], field: shown, key: field.key)
            }
            if !problems.isEmpty { return reply(error: .validation(problems), in: interaction) }
        }
        for field in form.fields where field.collector.kind == .value {
            if let value = formData[field.key] { interaction.values[field.key] = value }
        }
        return advance(&interaction, to: target)
    }

    /// Runs connector steps from `start` until a form (answered with it), an error (answered, the
    /// client stays on its form) or the flow's end.
    func advance(_ interaction: inout Interaction, to start: String) -> ServerReply {
        var current = start
        for _ in 0..<Self.stepLimit {
            guard let node = interaction.flow.nodes[current] else { break }
            switch node.kind {
            case .form(let form):
                interaction.form = node.id
                interaction.stepId = Self.stepId(random)
                let user = interaction.userId.flatMap { server.users.find(id: $0) }
                let context = RenderContext(
                    username: user?.username, email: user?.email,
                    phone: user?.attributes["telephoneNumber"]?.stringValue, oathDevices: user?.devices.oath ?? [],
                    pendingDevice: interaction.pendingDevice)
                let fields = form.fields.map { $0.collector.render($0.json, for: context) }
                interaction.shownFields = Dictionary(
                    zip(form.fields.map(\.key), fields).filter { !$0.0.isEmpty }, uniquingKeysWith: { $1 })
                interactions[interaction.id] = interaction
                return PingOneReplies.form(self, form: form, fields: fields, interaction: interaction)
            case .connector(let connector):
                let result = run(connector, node: node, in: &interaction)
                switch result {
                case .outcome(let outcome):
                    guard let next = node.next[outcome] else {
                        return finish(
                            &interaction,
                            failed: ("flowEnded", "Step \(node.id) ended the flow with \(outcome), which leads nowhere")
                        )
                    }
                    current = next
                case .error(let error):
                    interactions[interaction.id] = interaction
                    return reply(error: error, in: interaction)
                case .complete:
                    return complete(&interaction)
                case .failed(let code, let message):
                    return finish(&interaction, failed: (code, message))
                }
            }
        }
        return finish(&interaction, failed: ("flowLoop", "The flow ran \(Self.stepLimit) steps without a form"))
    }

    private func run(_ connector: FlowConnector, node: FlowNode, in interaction: inout Interaction) -> ConnectorResult {
        guard let capability = connector.capability else {
            let chosen = choices[interaction.flow.name]?[node.id] ?? connector.defaultOutcome
            return chosen.map { .outcome($0) }
                ?? .failed(code: "noOutcome", message: "Step \(node.id) has no outcome to take")
        }
        var step = ConnectorStep(
            server: server, clock: clock, random: random, interaction: interaction, settings: connector.settings,
            connectorId: connector.connectorId, capabilityName: connector.capabilityName)
        let result = capability.run(&step)
        interaction = step.interaction
        return result
    }

    /// The user is signed on: an SSO session in the shared store and a code from the shared
    /// OAuth issuer, answered as PingOne's `authorizeResponse`.
    private func complete(_ interaction: inout Interaction) -> ServerReply {
        interactions[interaction.id] = nil
        guard let id = interaction.userId, let user = server.users.find(id: id) else {
            return PingOneReplies.failed(self, code: "noUser", message: "No user", interaction: interaction)
        }
        let session = server.sessions.create(for: user, journeys: [])
        let code = server.authorize(interaction.authorization.request(ssoToken: session.tokenId, issuer: asBase))
        return PingOneReplies.completed(self, code: code, session: session.tokenId, interaction: interaction)
    }

    private func finish(_ interaction: inout Interaction, failed: (code: String, message: String)) -> ServerReply {
        interactions[interaction.id] = nil
        return PingOneReplies.failed(self, code: failed.code, message: failed.message, interaction: interaction)
    }

    func reply(error: DaVinciError, in interaction: Interaction) -> ServerReply {
        ServerReply(
            status: error.httpStatus,
            body: error.body(
                interactionId: interaction.id, companyId: environmentId,
                connectionId: PingOneReplies.connectionId(error.connectorId, flow: interaction.flow),
                stepId: interaction.stepId, requestId: Self.uuid(random)))
    }

    /// What a submit without an `actionKey` presses: the form's first submit button.
    private static func defaultAction(of form: FlowForm) -> String {
        form.fields.first { $0.type == "SUBMIT_BUTTON" }?.key ?? "submit"
    }
}
