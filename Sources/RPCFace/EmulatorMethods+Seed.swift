import AuthBridgeCore
import Host
import JSONRPC

/// `emulator.import`, `emulator.export`, `emulator.reset`: seed data in, state out
/// (docs/seed.md). A refused document is −32602 with `data.param` the argument and `data.path`
/// the JSON path at fault inside it; nothing of it is loaded.
extension RPCFace {
    func registerSeedMethods() {
        register("emulator.import") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let document = try params.optionalObject("document")
            let path = try params.optionalString("path")
            let source: World.SeedSource
            switch (document, path) {
            case (let document?, nil): source = .inline(.object(document))
            case (nil, let path?): source = .file(path)
            default:
                throw .invalidParams("give document (the seed inline) or path (a file), one of them", param: "document")
            }
            let param = path == nil ? "document" : "path"
            let outcome = try unit { world in
                Result { () throws(World.ImportFailure) in try world.importSeed(source) }
            }
            switch outcome {
            case .success(let summary):
                return [
                    "users": .int(Int64(summary.users)), "sessions": .int(Int64(summary.sessions)),
                    "clients": .int(Int64(summary.clients)),
                ]
            case .failure(.document(let error)):
                throw JSONRPCError(
                    code: JSONRPCError.invalidParamsCode, message: "Invalid params: \(error.description)",
                    data: ["reason": .string(error.reason), "param": .string(param), "path": .string(error.path)])
            case .failure(let failure):
                throw .invalidParams(failure.message, param: param)
            }
        }
        register("emulator.export") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return try unit { world in world.exportSeed() }
        }
        register("emulator.reset") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            try Self.checked(try unit { world in Result { () throws(EmulatorError) in try world.reset() } })
            return ["reset": true]
        }
    }
}
