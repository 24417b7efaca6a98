import AuthBridgeCore
import Host
import JSONRPC

/// `emulator.davinciFlows`, `emulator.loadDavinciFlow`, `emulator.setConnectorOutcome`: the
/// PingOne server's flows as a test drives them (docs/davinci.md). What a flow sent (an e-mailed
/// or texted code) is read with `emulator.lastOneTimeCode`, as a journey's.
extension RPCFace {
    static let davinciMethods = ["emulator.davinciFlows", "emulator.loadDavinciFlow", "emulator.setConnectorOutcome"]

    func registerDavinciMethods() {
        register("emulator.davinciFlows") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return try unit { world in world.davinciFlows }
        }
        register("emulator.loadDavinciFlow") { [unowned self] call throws(JSONRPCError) in
            let flow = try NamedParams(call).object("flow")
            let loaded = try Self.checked(
                try unit { world in
                    Result { () throws(EmulatorError) in try world.loadDavinciFlows(.object(flow)) }
                })
            return ["loaded": .array(loaded.map { .string($0) })]
        }
        register("emulator.setConnectorOutcome") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let (flow, node, outcome) = (
                try params.string("flow"), try params.string("node"), try params.string("outcome")
            )
            try Self.checked(
                try unit { world in
                    Result { () throws(EmulatorError) in
                        try world.setConnectorOutcome(flow: flow, node: node, outcome: outcome)
                    }
                })
            return ["flow": .string(flow), "node": .string(node), "outcome": .string(outcome)]
        }
    }
}
