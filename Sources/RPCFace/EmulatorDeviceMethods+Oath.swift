import AuthBridgeCore
import Host
import JSONRPC

/// `emulator.scanOath` and `emulator.oathCode`: a phone's authenticator app as a test drives it.
extension RPCFace {
    func registerOathMethods() {
        register("emulator.scanOath") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let (username, phone) = (try params.optionalString("username"), try params.optionalString("phone"))
            let uri = try params.string("uri")
            let credential = try Self.checked(
                try unit { world in
                    Result { () throws(EmulatorError) in
                        try world.scanOath(phone: try world.phoneId(username: username, phone: phone), uri: uri)
                    }
                })
            return .object(credential.summaryJSON)
        }
        register("emulator.oathCode") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let (username, phone) = (try params.optionalString("username"), try params.optionalString("phone"))
            let id = try params.optionalString("id")
            let (credential, code) = try Self.checked(
                try unit { world in
                    Result { () throws(EmulatorError) in
                        try world.oathCode(phone: try world.phoneId(username: username, phone: phone), credential: id)
                    }
                })
            var result = credential.summaryJSON
            result["code"] = .string(code)
            return .object(result)
        }
    }
}
