import AuthBridgeCore
import IdentityServer

/// The `/json/sessions` actions beside logout: validate, getSessionInfo and refresh, answered as
/// AM does for a session named by its token. A session past its Maximum Session Time or Maximum
/// Idle Time (`SessionLimits`) is not valid; `refresh` starts its idle time again, `validate`
/// and `getSessionInfo` do not.
extension EmbeddedAM {
    public func validateSession(ssoToken: String) -> ServerReply {
        guard let session = sessions.find(ssoToken) else { return ServerReply(status: 200, body: ["valid": false]) }
        return ServerReply(
            status: 200,
            body: [
                "valid": true, "uid": .string(session.username), "realm": .string(config.realmPath),
            ])
    }

    public func sessionInfo(ssoToken: String, refresh: Bool) -> ServerReply {
        guard let session = refresh ? sessions.use(ssoToken) : sessions.find(ssoToken) else {
            return ServerReply(status: 401, body: AMErrors.accessDenied)
        }
        let limits = sessions.limits
        return ServerReply(
            status: 200,
            body: [
                "username": .string(session.username),
                "universalId": .string(AMIdentity.universalId(session.username, realm: config.realm)),
                "realm": .string(config.realmPath),
                "latestAccessTime": .string(ISO8601.format(session.lastAccess)),
                "maxIdleExpirationTime": .string(ISO8601.format(session.lastAccess + limits.maxIdleTime)),
                "maxSessionExpirationTime": .string(ISO8601.format(session.authTime + limits.maxSessionTime)),
            ])
    }
}
