import AuthBridgeCore
import EmbeddedAM
import Host

/// `sessions`: the live SSO sessions in the seed's form, created from it, read, and ended one
/// or all (as an administrator ends them: the native side's login ends with its session), one by
/// its token or by its opsId.
enum AdminSessions {
    static let resource = AdminResource(
        name: "sessions",
        routes: [
            AdminRoute("GET", "sessions") { _, world throws(AdminError) in
                AdminReply(["sessions": .array(sessions(world).map { .object($0) })])
            },
            AdminRoute("POST", "sessions") { call, world throws(AdminError) in
                let body = try call.object()
                try AdminState.importDocument(
                    ["version": 1, "sessions": [.object(body)]], prefix: "sessions[0]", world)
                return AdminReply(try session(body["token"]?.stringValue ?? "", world), status: 201)
            },
            AdminRoute("DELETE", "sessions") { _, world throws(AdminError) in
                let tokens = world.embedded.sessions.all.map(\.tokenId)
                for token in tokens { world.embedded.sessions.end(token, cause: .administrator) }
                return AdminReply(["deleted": .int(Int64(tokens.count))])
            },
            // By the session's opsId, which is no credential (what the inspector page holds of a
            // session: it shows the token cut short), and as a logout of that session ends it
            // (`/sessions?_action=logout`): the native login holding it ends too, with LOGOUT_EVENT.
            AdminRoute("DELETE", "sessions/ops/{opsId}") { call, world throws(AdminError) in
                let opsId = call.capture("opsId")
                guard let session = world.embedded.sessions.all.first(where: { $0.opsId == opsId }),
                    world.embedded.sessions.end(session.tokenId, cause: .logout)
                else { throw AdminError(404, "no live session with that opsId", field: "opsId") }
                return AdminReply([:])
            },
            AdminRoute("GET", "sessions/{token}") { call, world throws(AdminError) in
                AdminReply(try session(call.capture("token"), world))
            },
            AdminRoute("DELETE", "sessions/{token}") { call, world throws(AdminError) in
                guard world.embedded.sessions.end(call.capture("token"), cause: .administrator) else {
                    throw AdminError(404, "no live session with that token", field: "token")
                }
                return AdminReply([:])
            },
        ])

    /// The export's sessions: the one form the seed writes them in.
    private static func sessions(_ world: World) -> [JSONObject] {
        (world.exportSeed()["sessions"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    private static func session(_ token: String, _ world: World) throws(AdminError) -> JSONValue {
        guard let found = sessions(world).first(where: { $0["token"]?.stringValue == token }) else {
            throw AdminError(404, "no live session with that token", field: "token")
        }
        return .object(found)
    }
}
