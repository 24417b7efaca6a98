import AuthBridgeCore
import HTTPServer
import IdentityServer

/// `GET|POST …/oauth2/realms/root/realms/<realm>/authorize`: the code flow with PKCE. The server
/// decides whether the caller's SSO session (cookie, or a header named like it) lets it issue a
/// code; this face decides what a browser sees when it does not. As AM does
/// (`OpenAMResourceOwnerSessionValidator.java` in OpenIdentityPlatform/OpenAM, `openam-oauth2`):
/// without a session, `prompt=none` gets the `interaction_required` error redirect and any other
/// prompt is sent to the login page (`LoginPageEndpoint.swift`) with `goto` back here;
/// `prompt=login` ends the session it comes with and is sent there too, its `login` taken out of
/// the `goto` so that the return does not ask again. The redirect with the code is a 302
/// (`response_mode=query`, the default) or an auto-posting form (`form_post`).
extension AMRoutes {
    func authorize(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let parameters = request.parameters
        let prompt = OpenIDPrompt(parameters["prompt"])
        let challenge = parameters["code_challenge"] ?? ""
        let session = request.ssoToken(cookieName: config.cookieName)
        let call = AuthorizeRequest(
            // A fresh sign-in asks the server as if there were no session: it still checks the
            // client, the redirect URI and the scopes first, and no code is minted for the old session.
            ssoToken: prompt.login ? "" : session ?? "",
            clientId: parameters["client_id"] ?? "", redirectUri: parameters["redirect_uri"] ?? "",
            scope: parameters["scope"] ?? "", state: parameters["state"] ?? "", codeChallenge: challenge,
            // RFC 7636 §4.3: a challenge without a method is `plain`.
            codeChallengeMethod: parameters["code_challenge_method"] ?? (challenge.isEmpty ? "S256" : "plain"),
            responseType: parameters["response_type"] ?? "", nonce: parameters["nonce"], prompt: parameters["prompt"])
        let reply = try server.authorize(call)
        guard reply.status == 302, let location = reply.headers["Location"] else {
            return AMResponse.from(reply, headers: [AMResponse.noStore])
        }
        if !prompt.none, PercentEncoding.queryParameters(of: location)["error"] == "interaction_required" {
            if prompt.login, let session { _ = try server.logoutSession(ssoToken: session) }
            return loginRedirect(request, parameters: parameters)
        }
        guard parameters["response_mode"] == "form_post" else {
            return HTTPResponse(status: 302, headers: [.init("Location", location), AMResponse.noStore])
        }
        return Self.formPost(to: location)
    }

    /// The 302 to the login page: the realm, the journey the request asks for, and `goto`, this
    /// request again as a GET on the path it came by, without `login` in its prompt. The `goto` is
    /// a path, not a URL: the browser comes back to the host it used, where the page's cookie is.
    private func loginRedirect(_ request: HTTPRequest, parameters: [String: String]) -> HTTPResponse {
        func escaped(_ name: String, _ value: String) -> String {
            "\(PercentEncoding.escape(name))=\(PercentEncoding.escape(value))"
        }
        // A GET's query comes back as it was sent, but for the prompt; a POST's form as a query.
        let pairs: [String]
        if request.method == "POST" {
            pairs = parameters.keys.sorted().compactMap { name in
                name == "prompt"
                    ? Self.withoutLogin(parameters[name]).map { escaped(name, $0) }
                    : escaped(name, parameters[name] ?? "")
            }
        } else {
            pairs = request.query.split(separator: "&").compactMap { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard PercentEncoding.unescape(parts[0]) == "prompt" else { return String(pair) }
                return Self.withoutLogin(parts.count > 1 ? PercentEncoding.unescape(parts[1]) : "").map {
                    escaped("prompt", $0)
                }
            }
        }
        let goto = request.path + "?" + pairs.joined(separator: "&")
        var page = [("realm", config.realmPath)]
        // AM prefers `acr_values` (through the provider's ACR mapping: here each journey's name
        // is its own value, and the first value is taken), then `service`.
        if let acr = parameters["acr_values"]?.split(separator: " ").first {
            page.append(("service", String(acr)))
        } else if let service = parameters["service"], !service.isEmpty {
            page.append(("service", service))
        }
        page.append(("goto", goto))
        let location =
            LoginPage.path(deployedUnder: request.path) + "?"
            + page.map { "\($0.0)=\(PercentEncoding.escape($0.1))" }.joined(separator: "&")
        return HTTPResponse(status: 302, headers: [.init("Location", location), AMResponse.noStore])
    }

    /// A prompt with `login` taken out (AM's `removeLoginPrompt`); nil when nothing is left.
    private static func withoutLogin(_ prompt: String?) -> String? {
        let kept = (prompt ?? "").split(separator: " ").filter { $0.lowercased() != "login" }.joined(separator: " ")
        return kept.isEmpty ? nil : kept
    }

    /// OAuth 2.0 Form Post Response Mode: the redirect's parameters as hidden fields of a form
    /// the browser posts to the redirect URI as soon as the page loads.
    static func formPost(to location: String) -> HTTPResponse {
        let target = location.split(separator: "?", maxSplits: 1).first.map(String.init) ?? location
        let query = location.dropFirst(target.count).dropFirst()
        var fields: [String] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentEncoding.unescape(parts[0])
            let value = parts.count > 1 ? PercentEncoding.unescape(parts[1]) : ""
            fields.append(#"<input type="hidden" name="\#(HTML.escape(name))" value="\#(HTML.escape(value))"/>"#)
        }
        let page = """
            <!DOCTYPE html>
            <html><head><title>Submit This Form</title></head>
            <body onload="document.forms[0].submit()">
            <form method="post" action="\(HTML.escape(target))">
            \(fields.joined(separator: "\n"))
            <noscript><button type="submit">Continue</button></noscript>
            </form></body></html>

            """
        return HTTPResponse(status: 200, headers: [HTML.contentType, AMResponse.noStore], body: Array(page.utf8))
    }
}
