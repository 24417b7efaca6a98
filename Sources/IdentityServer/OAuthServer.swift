/// The OAuth 2.0 / OIDC endpoints an SDK's OIDC client calls, apart from the rest of a server: the
/// authorize step, the token, user info and revocation endpoints, the sign-off, and AM's session
/// check the emulated browser uses. AM (`IdentityServer`) has them under its realm's paths; a
/// PingOne environment has them under `/{envId}/as/` (the native SDK's DaVinci client reaches them
/// through `PingOneServer`). The Ping SDK's OIDC client (token store, refresh, revoke, user info,
/// end session) is written once over this.
public protocol OAuthServer: AnyObject {
    /// `…/authorize` with the SSO token; answered with a 302.
    func authorize(_ request: AuthorizeRequest) throws(TransportError) -> ServerReply
    /// `…/access_token` (AM), `…/as/token` (PingOne), form-encoded.
    func token(form: [String: String]) throws(TransportError) -> ServerReply
    /// `…/userinfo` with `Authorization: Bearer`.
    func userInfo(accessToken: String) throws(TransportError) -> ServerReply
    /// `…/token/revoke` (AM), `…/as/revoke` (PingOne), form-encoded (RFC 7009).
    func revoke(form: [String: String]) throws(TransportError) -> ServerReply
    /// `…/connect/endSession?id_token_hint=…` (AM), `…/as/signoff` (PingOne), or the sign-off
    /// endpoint the caller's SDK picks from discovery (`endpoint`).
    func endSession(
        idTokenHint: String, clientId: String?, at endpoint: EndSessionEndpoint
    ) throws(TransportError) -> ServerReply
    /// AM's `POST /json/realms/<realm>/sessions?_action=validate`: 200 `{valid: true|false, …}`.
    func validateSession(ssoToken: String) throws(TransportError) -> ServerReply
}
