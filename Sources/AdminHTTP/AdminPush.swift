import AuthBridgeCore
import EmulatedDevice
import Host

/// `phones/{phone}/notifications`: the push notifications waiting on an emulated phone, approved
/// or denied as its authenticator app would, as `emulator.pushNotifications`,
/// `emulator.approvePush` and `emulator.denyPush` do (docs/seed.md).
enum AdminPush {
    static let resource = AdminResource(
        name: "push",
        routes: [
            AdminRoute("GET", "phones/{phone}/notifications") { call, world throws(AdminError) in
                let id = try phone(call, world)
                return AdminReply([
                    "phone": .string(id),
                    "notifications": .array(world.pushNotifications(phone: id).map { .object($0.summaryJSON) }),
                ])
            },
            AdminRoute("POST", "phones/{phone}/notifications/{id}/approve") { call, world throws(AdminError) in
                var number: Int?
                if call.body != nil, let value = try call.object()["number"] {
                    guard let chosen = value.intValue, (0...999).contains(chosen) else {
                        throw AdminError(400, "number must be an integer from 0 to 999", field: "number")
                    }
                    number = Int(chosen)
                }
                return try answer(call, world, approve: true, number: number)
            },
            AdminRoute("POST", "phones/{phone}/notifications/{id}/deny") { call, world throws(AdminError) in
                try answer(call, world, approve: false, number: nil)
            },
        ])

    private static func phone(_ call: AdminCall, _ world: World) throws(AdminError) -> String {
        do throws(EmulatorError) {
            return try world.phoneId(username: nil, phone: call.capture("phone"))
        } catch {
            throw AdminError(404, error.reason, field: error.param)
        }
    }

    private static func answer(
        _ call: AdminCall, _ world: World, approve: Bool, number: Int?
    ) throws(AdminError) -> AdminReply {
        let id = try phone(call, world)
        do throws(EmulatorError) {
            let answered = try world.answerPush(
                phone: id, messageId: call.capture("id"), approve: approve, number: number)
            return AdminReply(.object(answered.summaryJSON))
        } catch {
            throw AdminError(409, error.reason, field: error.param)
        }
    }
}
