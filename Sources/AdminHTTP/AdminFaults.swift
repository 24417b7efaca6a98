import AuthBridgeCore
import Host

/// `faults`: the fault plan over HTTP, the same specs and answers as `emulator.fault`,
/// `emulator.faults` and `emulator.clearFaults` (docs/faults.md).
enum AdminFaults {
    static let resource = AdminResource(
        name: "faults",
        routes: [
            AdminRoute("GET", "faults") { _, world throws(AdminError) in
                AdminReply(["faults": .array(world.faults.map(\.json))])
            },
            AdminRoute("POST", "faults") { call, world throws(AdminError) in
                let body = try call.object()
                let spec: FaultSpec
                do throws(EmulatorError) { spec = try FaultSpec.parse(body) } catch { throw refused(error) }
                return AdminReply(world.setFault(spec).json, status: 201)
            },
            AdminRoute("DELETE", "faults") { _, world throws(AdminError) in
                try cleared(nil, world)
            },
            AdminRoute("DELETE", "faults/{id}") { call, world throws(AdminError) in
                try cleared(call.capture("id"), world)
            },
        ])

    private static func cleared(_ id: String?, _ world: World) throws(AdminError) -> AdminReply {
        do throws(EmulatorError) {
            let gone = try world.clearFaults(id: id)
            return AdminReply(["cleared": .array(gone.map { .string($0.id) })])
        } catch {
            throw AdminError(404, error.reason, field: error.param)
        }
    }

    private static func refused(_ error: EmulatorError) -> AdminError {
        AdminError(400, error.reason, field: error.param)
    }
}
