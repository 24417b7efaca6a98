import AuthBridgeCore
import Host
import JSONRPC

/// `emulator.passkeys` and `emulator.answerWebAuthn`: a phone's passkeys as a test sees and uses
/// them.
extension RPCFace {
    func registerWebAuthnMethods() {
        register("emulator.passkeys") { [unowned self] call throws(JSONRPCError) in
            let found = try onPhone(NamedParams(call)) { world, id in (id, world.passkeys(phoneId: id)) }
            return ["phone": .string(found.0), "passkeys": .array(found.1.map { .object($0.summaryJSON) })]
        }
        register("emulator.answerWebAuthn") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let data = try params.object("data")
            let origin = try params.optionalString("origin")
            let cancel = try params.optionalBool("cancel") ?? false
            let value = try onPhone(params) { world, phone throws(EmulatorError) in
                try world.answerWebAuthn(phoneId: phone, data: data, origin: origin, cancel: cancel)
            }
            return ["value": .string(value)]
        }
    }
}
