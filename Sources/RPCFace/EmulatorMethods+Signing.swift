import AuthBridgeCore
import Host
import IdentityServer
import JSONRPC

/// `emulator.rotateSigningKeys`: the embedded server's OAuth signing keys, rotated as an
/// administrator rotates AM's signing secrets.
extension RPCFace {
    func registerSigningMethods() {
        register("emulator.rotateSigningKeys") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            let rotation = try unit { world in world.embedded.rotateSigningKeys() }
            func json(_ key: SigningKeyRotation.Key) -> JSONValue {
                var members: [(String, JSONValue)] = [
                    ("kid", .string(key.kid)), ("alg", .string(key.algorithm.rawValue)),
                ]
                if let until = key.until { members.append(("publishedUntil", .double(until))) }
                return .object(JSONObject(members))
            }
            return ["keys": .array(rotation.current.map(json)), "retired": .array(rotation.retired.map(json))]
        }
    }
}
