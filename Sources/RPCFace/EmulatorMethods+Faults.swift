import AuthBridgeCore
import Host
import JSONRPC

/// `emulator.fault`, `emulator.faults`, `emulator.clearFaults`: the server failing on purpose
/// (docs/faults.md). The spec's JSON is read by `FaultSpec.parse`, which the admin API shares.
extension RPCFace {
    func registerFaultMethods() {
        register("emulator.fault") { [unowned self] call throws(JSONRPCError) in
            let params: JSONObject
            switch call.params {
            case .object(let object)?: params = object
            default: throw .invalidParams("emulator.fault takes a fault spec: named params (an object)")
            }
            let spec = try Self.checked(Result { () throws(EmulatorError) in try FaultSpec.parse(params) })
            return try unit { world in world.setFault(spec) }.json
        }
        register("emulator.faults") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return ["faults": .array(try unit { world in world.faults }.map(\.json))]
        }
        register("emulator.clearFaults") { [unowned self] call throws(JSONRPCError) in
            let id = try NamedParams(call).optionalString("id")
            let cleared = try Self.checked(
                try unit { world in Result { () throws(EmulatorError) in try world.clearFaults(id: id) } })
            return ["cleared": .array(cleared.map { .string($0.id) })]
        }
    }
}
