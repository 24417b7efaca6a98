import AuthBridgeCore
import PingOne

/// What `emulator.*` does with the PingOne server's DaVinci flows (docs/davinci.md).
extension World {
    /// Loads flows (one, or `{"flows": [...]}`), replacing any of the same name.
    public func loadDavinciFlows(_ json: JSONValue) throws(EmulatorError) -> [String] {
        do {
            let flows = try DaVinciFlow.load(json)
            for flow in flows { pingOne.add(flow: flow) }
            return flows.map(\.name)
        } catch {
            throw EmulatorError(param: "flow", reason: error.reason)
        }
    }

    /// The outcome a connector step AuthBridge cannot run takes from now on.
    public func setConnectorOutcome(flow: String, node: String, outcome: String) throws(EmulatorError) {
        do {
            try pingOne.choose(flow: flow, node: node, outcome: outcome)
        } catch {
            throw EmulatorError(param: "node", reason: error.reason)
        }
    }

    /// The environment and its flows, with the steps a scenario decides.
    public var davinciFlows: JSONValue {
        [
            "environmentId": .string(pingOne.environmentId), "issuer": .string(pingOne.asBase),
            "flows": .array(
                pingOne.flowNames.compactMap { pingOne.flows[$0] }.map { flow in
                    [
                        "name": .string(flow.name), "id": .string(flow.id),
                        "scenarioSteps": .array(
                            flow.scenarioNodes.map {
                                [
                                    "node": .string($0.node), "outcomes": .array($0.outcomes.map { .string($0) }),
                                    "chosen": JSONValue(pingOne.chosenOutcome(flow: flow.name, node: $0.node)),
                                ]
                            }),
                    ]
                }),
        ]
    }
}
