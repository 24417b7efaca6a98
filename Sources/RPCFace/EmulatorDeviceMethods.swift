import AuthBridgeCore
import EmbeddedAM
import EmulatedDevice
import Host
import JSONRPC

/// `emulator.devices`, `emulator.resetDevice`, `emulator.cloneDevice`: the emulated phones as a
/// test sees and handles them. Each kind of credential registers its own methods beside these
/// (`EmulatorDeviceMethods+<Kind>.swift`), called from `registerDeviceMethods`.
extension RPCFace {
    func registerDeviceMethods() {
        register("emulator.devices") { [unowned self] call throws(JSONRPCError) in
            let username = try NamedParams(call).string("username")
            let found = try Self.checked(
                try unit { world in Result { () throws(EmulatorError) in try world.devices(of: username) } })
            var result: JSONObject = [
                "username": .string(username), "phones": .array(found.phones.map { .object($0.summaryJSON) }),
            ]
            if let registered = found.registered {
                result["registered"] = .object(
                    JSONObject(
                        DeviceKind.allCases.map { ($0.rawValue, .array(registered.restJSON($0).map { .object($0) })) }))
            }
            return .object(result)
        }
        register("emulator.resetDevice") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let (username, phone) = (try params.optionalString("username"), try params.optionalString("phone"))
            let reset = try Self.checked(
                try unit { world in
                    Result { () throws(EmulatorError) in
                        world.resetPhone(id: try world.phoneId(username: username, phone: phone))
                    }
                })
            return .object(reset.summaryJSON)
        }
        register("emulator.cloneDevice") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let (username, phone) = (try params.optionalString("username"), try params.optionalString("phone"))
            let copy = try Self.checked(
                try unit { world in
                    Result { () throws(EmulatorError) in
                        world.clonePhone(id: try world.phoneId(username: username, phone: phone))
                    }
                })
            return .object(copy.summaryJSON)
        }
        registerOathMethods()
        registerBindingMethods()
        registerPushMethods()
        registerWebAuthnMethods()
    }
}
