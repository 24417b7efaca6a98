import AuthBridgeCore
import Host
import JSONRPC

/// `emulator.scanOath` and `emulator.oathCode`: a phone's authenticator app as a test drives it.
extension RPCFace {
    func registerOathMethods() {
        register("emulator.scanOath") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let uri = try params.string("uri")
            return .object(
                try onPhone(params) { world, phone throws(EmulatorError) in try world.scanOath(phone: phone, uri: uri) }
                    .summaryJSON)
        }
        register("emulator.oathCode") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let id = try params.optionalString("id")
            let (credential, code) = try onPhone(params) { world, phone throws(EmulatorError) in
                try world.oathCode(phone: phone, credential: id)
            }
            var result = credential.summaryJSON
            result["code"] = .string(code)
            return .object(result)
        }
    }
}
