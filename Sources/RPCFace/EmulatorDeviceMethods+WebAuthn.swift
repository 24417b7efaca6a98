import AuthBridgeCore
import Host
import JSONRPC

/// `emulator.passkeys` and `emulator.answerWebAuthn`: a phone's passkeys as a test sees and uses
/// them.
extension RPCFace {
    func registerWebAuthnMethods() {
        register("emulator.passkeys") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let (username, phone) = (try params.optionalString("username"), try params.optionalString("phone"))
            let found = try Self.checked(
                try unit { world in
                    Result { () throws(EmulatorError) in
                        let id = try world.phoneId(username: username, phone: phone)
                        return (id, world.passkeys(phoneId: id))
                    }
                })
            return ["phone": .string(found.0), "passkeys": .array(found.1.map { .object($0.summaryJSON) })]
        }
        register("emulator.answerWebAuthn") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let (username, phone) = (try params.optionalString("username"), try params.optionalString("phone"))
            let data = try params.object("data")
            let origin = try params.optionalString("origin")
            let cancel = try params.optionalBool("cancel") ?? false
            let value = try Self.checked(
                try unit { world in
                    Result { () throws(EmulatorError) in
                        try world.answerWebAuthn(
                            phoneId: try world.phoneId(username: username, phone: phone), data: data, origin: origin,
                            cancel: cancel)
                    }
                })
            return ["value": .string(value)]
        }
    }
}
