import AuthBridgeCore
import IdentityServer

/// The emulated browser of the successor SDK's `BrowserLauncher` (ping-ios-sdk `Browser`,
/// ping-android-sdk `foundation/browser`): it loads a URL the way a browser carrying the app's
/// SSO cookie would, and reports where it ends up. Only AM's own pages can be loaded:
/// - AM's authorize endpoint (`…/oauth2/…/authorize?client_id=…&redirect_uri=…`): signed in with
///   the browser's session (`browserSession`), AM redirects to the redirect URI with a code, or
///   with an OAuth error when AM refuses the request after checking the redirect URI;
/// - AM's end-session endpoint (`…/connect/endSession?id_token_hint=…`): the session ends, and
///   the browser follows `post_logout_redirect_uri` (with `state`) when it is one of the clients'
///   Post Logout Redirect URIs; AM refuses another with an error page (as the HTTP face does).
/// Anything else (a page the daemon cannot serve, AM's error page, a sign-in the test user cannot
/// pass) stays on a page the app never leaves by itself: `nil`, which the user answers by
/// closing the browser.
extension PingSDK {
    public func browse(_ url: String) -> String? {
        let path = String(url.prefix { $0 != "?" && $0 != "#" })
        let query = PercentEncoding.queryParameters(of: url)
        if path.hasSuffix("/authorize"), path.contains("/oauth2") {
            guard let clientId = query["client_id"], let redirectUri = query["redirect_uri"],
                let token = try? browserSession()
            else { return nil }
            let request = AuthorizeRequest(
                ssoToken: token, clientId: clientId, redirectUri: redirectUri, scope: query["scope"] ?? "",
                state: query["state"] ?? "", codeChallenge: query["code_challenge"] ?? "",
                codeChallengeMethod: query["code_challenge_method"] ?? "S256",
                responseType: query["response_type"] ?? "code")
            guard let reply = try? server.authorize(request), reply.status == 302 else { return nil }
            return reply.headers["Location"]
        }
        if path.hasSuffix("/connect/endSession") || path.hasSuffix("/endSession") {
            guard let hint = query["id_token_hint"],
                let reply = try? server.endSession(
                    idTokenHint: hint, clientId: query["client_id"], at: .endSessionEndpoint),
                reply.isSuccess, let target = query["post_logout_redirect_uri"],
                postLogoutRedirectUris?.contains(target) ?? true
            else { return nil }
            return query["state"].map { "\(target)?state=\(PercentEncoding.escape($0))" } ?? target
        }
        return nil
    }
}
