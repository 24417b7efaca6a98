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
            .object(try onPhone(NamedParams(call)) { world, id in world.resetPhone(id: id) }.summaryJSON)
        }
        register("emulator.cloneDevice") { [unowned self] call throws(JSONRPCError) in
            .object(try onPhone(NamedParams(call)) { world, id in world.clonePhone(id: id) }.summaryJSON)
        }
        registerOathMethods()
        registerBindingMethods()
        registerPushMethods()
        registerWebAuthnMethods()
    }

    /// Runs a device operation as one unit on the phone a call names: `phone` (its id) or
    /// `username` (the user's first phone, made if need be). A bad argument is −32602 naming it.
    func onPhone<T: Sendable>(
        _ params: NamedParams, _ operation: (World, _ phone: String) throws(EmulatorError) -> T
    ) throws(JSONRPCError) -> T {
        let (username, phone) = (try params.optionalString("username"), try params.optionalString("phone"))
        return try Self.checked(
            try unit { world in
                Result { () throws(EmulatorError) in
                    try operation(world, try world.phoneId(username: username, phone: phone))
                }
            })
    }
}
