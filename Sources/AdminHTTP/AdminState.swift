import AuthBridgeCore
import EmbeddedAM
import Host

/// `import`, `export`, `reset`: the seed document in and out, and back to the start state, as
/// `emulator.import`, `emulator.export` and `emulator.reset` do.
enum AdminState {
    static let resource = AdminResource(
        name: "state",
        routes: [
            AdminRoute("POST", "import") { call, world throws(AdminError) in
                let summary = try importDocument(.object(try call.object()), prefix: "", world)
                return AdminReply([
                    "users": .int(Int64(summary.users)), "sessions": .int(Int64(summary.sessions)),
                    "clients": .int(Int64(summary.clients)),
                ])
            },
            AdminRoute("GET", "export") { _, world throws(AdminError) in AdminReply(world.exportSeed()) },
            AdminRoute("POST", "reset") { _, world throws(AdminError) in
                do throws(EmulatorError) { try world.reset() } catch { throw AdminError(500, error.reason) }
                return AdminReply([:])
            },
        ])

    /// Imports a document, its fault's path told relative to what the endpoint's body was.
    @discardableResult
    static func importDocument(
        _ document: JSONValue, prefix: String, _ world: World
    ) throws(AdminError) -> EmbeddedAM.SeedSummary {
        do {
            return try world.importSeed(.inline(document))
        } catch {
            switch error {
            case .document(let seedError): throw AdminError(seedError, droppingPrefix: prefix)
            case .file: throw AdminError(400, error.message)
            }
        }
    }
}
