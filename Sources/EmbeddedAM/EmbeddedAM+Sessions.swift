import AuthBridgeCore
import IdentityServer

/// The `/json/sessions` actions beside logout: validate, getSessionInfo and refresh, answered as
/// AM does for a session named by its token. Sessions here have no idle or maximum lifetime
/// (they end by logout, endSession or an administrator), so no expiration times are reported.
extension EmbeddedAM {
    public func validateSession(ssoToken: String) -> ServerReply {
        guard let session = sessions.find(ssoToken) else { return ServerReply(status: 200, body: ["valid": false]) }
        return ServerReply(status: 200, body: [
            "valid": true, "uid": .string(session.username), "realm": .string(config.realmPath),
        ])
    }

    public func sessionInfo(ssoToken: String, refresh: Bool) -> ServerReply {
        guard let session = sessions.find(ssoToken) else { return ServerReply(status: 401, body: AMErrors.accessDenied) }
        return ServerReply(status: 200, body: [
            "username": .string(session.username),
            "universalId": .string("id=\(session.username),ou=user,o=\(config.realm),ou=services,ou=am-config"),
            "realm": .string(config.realmPath),
            "latestAccessTime": .string(ISO8601.format(clock.now)),
        ])
    }
}
