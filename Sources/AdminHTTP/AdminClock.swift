import AuthBridgeCore
import Host

/// `clock`: the daemon's time, and under `--clock virtual` a move forward, as
/// `emulator.advanceClock` does.
enum AdminClock {
    static let resource = AdminResource(
        name: "clock",
        routes: [
            AdminRoute("GET", "clock") { _, world throws(AdminError) in
                AdminReply(["now": .double(world.clock.now), "virtual": .bool(world.clock is VirtualClock)])
            },
            AdminRoute("POST", "clock/advance") { call, world throws(AdminError) in
                guard let seconds = try call.object()["seconds"]?.doubleValue else {
                    throw AdminError(400, "expected a number of seconds", field: "seconds")
                }
                do throws(EmulatorError) {
                    return AdminReply(["now": .double(try world.advanceClock(by: seconds))])
                } catch {
                    throw AdminError(400, error.reason, field: error.param)
                }
            },
        ])
}
