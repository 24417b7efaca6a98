import AuthBridgeCore
import Host

/// `journeys/{journey}/nodes/{node}/outcome`: the outcome a scripted node (a script, a node the
/// emulator does not run) takes next time a journey reaches it, as `emulator.setNodeOutcome`
/// sets it (docs/journeys.md); `davinci/flows/{flow}/nodes/{node}/outcome`: the same for a DaVinci
/// flow's connector step AuthBridge does not run, as `emulator.setConnectorOutcome` (docs/davinci.md).
enum AdminJourneys {
    static let resource = AdminResource(
        name: "journeys",
        routes: [
            AdminRoute("PUT", "journeys/{journey}/nodes/{node}/outcome") { call, world throws(AdminError) in
                let outcome = try AdminJourneys.outcome(call)
                let (journey, node) = (call.capture("journey"), call.capture("node"))
                do throws(EmulatorError) {
                    try world.setNodeOutcome(journey: journey, node: node, outcome: outcome)
                } catch {
                    throw AdminError(404, error.reason, field: error.param)
                }
                return AdminReply(["journey": .string(journey), "node": .string(node), "outcome": .string(outcome)])
            },
            AdminRoute("PUT", "davinci/flows/{flow}/nodes/{node}/outcome") { call, world throws(AdminError) in
                let outcome = try AdminJourneys.outcome(call)
                let (flow, node) = (call.capture("flow"), call.capture("node"))
                do throws(EmulatorError) {
                    try world.setConnectorOutcome(flow: flow, node: node, outcome: outcome)
                } catch {
                    throw AdminError(404, error.reason, field: error.param)
                }
                return AdminReply(["flow": .string(flow), "node": .string(node), "outcome": .string(outcome)])
            },
        ])

    /// The body's `{outcome}`, a name.
    private static func outcome(_ call: AdminCall) throws(AdminError) -> String {
        guard case .string(let outcome)? = try call.object()["outcome"], !outcome.isEmpty else {
            throw AdminError(400, "expected the outcome's name", field: "outcome")
        }
        return outcome
    }
}
