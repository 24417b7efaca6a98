import AuthBridgeCore
import EmbeddedAM
import Host

/// `users/{username}/devices`: a user's devices in the seed's form (docs/seed.md), added in that
/// form, renamed and deleted by kind and uuid.
enum AdminDevices {
    static let resource = AdminResource(
        name: "devices",
        routes: [
            AdminRoute("GET", "users/{username}/devices") { call, world throws(AdminError) in
                AdminReply(EmbeddedAM.seedJSON(try devices(call.capture("username"), world)))
            },
            AdminRoute("POST", "users/{username}/devices") { call, world throws(AdminError) in
                let name = call.capture("username")
                _ = try devices(name, world)
                let body = try call.object()
                do throws(SeedError) {
                    let merged = try world.embedded.addSeedDevices(username: name, .object(body))
                    return AdminReply(EmbeddedAM.seedJSON(merged), status: 201)
                } catch {
                    throw AdminError(error)
                }
            },
            AdminRoute("PATCH", "users/{username}/devices/{kind}/{uuid}") { call, world throws(AdminError) in
                let (name, kind, uuid) = (call.capture("username"), try kind(call), call.capture("uuid"))
                guard case .string(let newName)? = try call.object()["deviceName"], !newName.isEmpty else {
                    throw AdminError(400, "expected a non-empty string", field: "deviceName")
                }
                var found = false
                world.embedded.users.update(username: name) { found = $0.devices.rename(kind, uuid: uuid, to: newName) }
                guard found else { throw AdminError(404, "no \(kind.rawValue) device \(uuid)", field: "uuid") }
                return AdminReply(EmbeddedAM.seedJSON(try devices(name, world)))
            },
            AdminRoute("DELETE", "users/{username}/devices/{kind}/{uuid}") { call, world throws(AdminError) in
                let (name, kind, uuid) = (call.capture("username"), try kind(call), call.capture("uuid"))
                _ = try devices(name, world)
                var found = false
                world.embedded.users.update(username: name) { found = $0.devices.delete(kind, uuid: uuid) }
                guard found else { throw AdminError(404, "no \(kind.rawValue) device \(uuid)", field: "uuid") }
                return AdminReply([:])
            },
        ])

    private static func devices(_ name: String, _ world: World) throws(AdminError) -> UserDevices {
        guard let user = world.embedded.users.find(username: name) else {
            throw AdminError(404, "no user named \(name)", field: "username")
        }
        return user.devices
    }

    private static func kind(_ call: AdminCall) throws(AdminError) -> DeviceKind {
        guard let kind = DeviceKind(rawValue: call.capture("kind")) else {
            throw AdminError(
                404,
                "no device kind \(call.capture("kind")) (\(DeviceKind.allCases.map(\.rawValue).joined(separator: ", ")))",
                field: "kind")
        }
        return kind
    }
}
