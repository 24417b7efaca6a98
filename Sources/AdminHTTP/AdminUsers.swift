import AuthBridgeCore
import EmbeddedAM
import Host

/// `users`: list, create (a seed user), read, update (password, attributes, lock), delete one
/// or all (Firebase's `DELETE …/accounts`), revoke one's sessions and grants, expire one's access
/// tokens.
enum AdminUsers {
    static let resource = AdminResource(
        name: "users",
        routes: [
            AdminRoute("GET", "users") { _, world throws(AdminError) in
                AdminReply(["users": .array(world.embedded.users.all.map { .object(EmbeddedAM.seedJSON($0)) })])
            },
            AdminRoute("DELETE", "users") { _, world throws(AdminError) in
                let names = world.embedded.users.all.map(\.username)
                for name in names { _ = world.embedded.deleteUser(username: name) }
                return AdminReply(["deleted": .int(Int64(names.count))])
            },
            AdminRoute("POST", "users") { call, world throws(AdminError) in
                let body = try call.object()
                if let name = body["username"]?.stringValue, world.embedded.users.contains(username: name) {
                    throw AdminError(409, "a user named \(name) already exists", field: "username")
                }
                try AdminState.importDocument(["version": 1, "users": [.object(body)]], prefix: "users[0]", world)
                return AdminReply(try user(body["username"]?.stringValue ?? "", world), status: 201)
            },
            AdminRoute("GET", "users/{username}") { call, world throws(AdminError) in
                AdminReply(try user(call.capture("username"), world))
            },
            AdminRoute("PATCH", "users/{username}") { call, world throws(AdminError) in
                let name = call.capture("username")
                _ = try user(name, world)
                try update(name, with: try call.object(), world)
                return AdminReply(try user(name, world))
            },
            // As `emulator.revokeSession`: the user's sessions and OAuth grants end on the server;
            // the native side is not told and finds out at its next refresh.
            AdminRoute("POST", "users/{username}/revoke") { call, world throws(AdminError) in
                let name = call.capture("username")
                _ = try user(name, world)
                do throws(EmulatorError) {
                    let ended = try world.revokeSessions(username: name)
                    return AdminReply(["sessions": .int(Int64(ended.sessions)), "grants": .int(Int64(ended.grants))])
                } catch {
                    throw AdminError(400, error.reason, field: error.param)
                }
            },
            // As `emulator.expireTokens`: every access token issued to the user so far counts as
            // expired; refresh tokens and sessions stay, so the native side refreshes.
            AdminRoute("POST", "users/{username}/tokens/expire") { call, world throws(AdminError) in
                let name = call.capture("username")
                _ = try user(name, world)
                do throws(EmulatorError) {
                    let expired = try world.expireTokens(username: name)
                    return AdminReply([
                        "accessTokensExpired": .int(Int64(expired.accessTokens)),
                        "nativeExpired": .bool(expired.native),
                    ])
                } catch {
                    throw AdminError(400, error.reason, field: error.param)
                }
            },
            AdminRoute("DELETE", "users/{username}") { call, world throws(AdminError) in
                guard world.embedded.deleteUser(username: call.capture("username")) != nil else {
                    throw AdminError(404, "no user named \(call.capture("username"))", field: "username")
                }
                return AdminReply([:])
            },
        ])

    static func user(_ name: String, _ world: World) throws(AdminError) -> JSONValue {
        guard let user = world.embedded.users.find(username: name) else {
            throw AdminError(404, "no user named \(name)", field: "username")
        }
        return .object(EmbeddedAM.seedJSON(user))
    }

    /// A PATCH: `password` (clear), `attributes` (merged; a `null` member removes it), `lock`
    /// (`{"until": ISO date or null}`, or `null` to unlock). Checked in full before any change.
    private static func update(_ name: String, with body: JSONObject, _ world: World) throws(AdminError) {
        let known = ["password", "attributes", "lock"]
        if let stray = body.keys.first(where: { !known.contains($0) }) {
            throw AdminError(400, "unknown field (known here: \(known.joined(separator: ", ")))", field: stray)
        }
        var password: String?
        if let value = body["password"] {
            guard case .string(let text) = value, !text.isEmpty else {
                throw AdminError(400, "expected a non-empty string", field: "password")
            }
            password = text
        }
        var attributes: JSONObject?
        if let value = body["attributes"] {
            guard case .object(let object) = value else {
                throw AdminError(400, "expected an object", field: "attributes")
            }
            attributes = object
        }
        var lock: DirectoryUser.AccountLock??
        if let value = body["lock"] {
            switch value {
            case .null: lock = .some(nil)
            case .object(let object):
                if let stray = object.keys.first(where: { $0 != "until" }) {
                    throw AdminError(400, "unknown field (known here: until)", field: "lock.\(stray)")
                }
                switch object["until"] {
                case nil, .null?: lock = .some(DirectoryUser.AccountLock(until: nil))
                case .string(let text)?:
                    guard let seconds = ISO8601.parse(text) else {
                        throw AdminError(400, "not a date: expected ISO 8601 UTC text", field: "lock.until")
                    }
                    lock = .some(DirectoryUser.AccountLock(until: seconds))
                default: throw AdminError(400, "expected ISO 8601 UTC text or null", field: "lock.until")
                }
            default: throw AdminError(400, "expected an object or null", field: "lock")
            }
        }
        if let password { world.embedded.users.setPassword(username: name, to: password) }
        world.embedded.users.update(username: name) { user in
            for member in attributes?.members ?? [] {
                user.attributes[member.key] = member.value == .null ? nil : member.value
            }
            if let lock {
                user.lock = lock
                if lock == nil { user.counters.removeAll() }
            }
        }
    }
}
