/// The OAuth 2.0 / OIDC endpoints an SDK's OIDC client calls, apart from the rest of a server: the
/// authorize step, the token, user info and revocation endpoints, the sign-off, and AM's session
/// check the emulated browser uses. AM (`IdentityServer`) has them under its realm's paths; a
/// PingOne environment has them under `/{envId}/as/` (the native SDK's DaVinci client reaches them
/// through `PingOneServer`). The Ping SDK's OIDC client (token store, refresh, revoke, user info,
/// end session) is written once over this.
public protocol OAuthServer: AnyObject {
    func authorize(_ request: AuthorizeRequest) throws(TransportError) -> ServerReply
    func token(form: [String: String]) throws(TransportError) -> ServerReply
    func userInfo(accessToken: String) throws(TransportError) -> ServerReply
    func revoke(form: [String: String]) throws(TransportError) -> ServerReply
    func endSession(
        idTokenHint: String, clientId: String?, at endpoint: EndSessionEndpoint
    ) throws(TransportError) -> ServerReply
    func validateSession(ssoToken: String) throws(TransportError) -> ServerReply
}
