import AuthBridgeCore
import HTTPServer
import IdentityServer

/// `GET|POST …/oauth2/realms/root/realms/<realm>/authorize`: the code flow with PKCE for a
/// caller that holds an SSO session (cookie, or a header named like it). There is no login page
/// here: without a session the answer is the `interaction_required` error redirect that
/// `prompt=none` asks for, whatever the prompt (docs/http.md, limits). The redirect is a 302
/// (`response_mode=query`, the default) or an auto-posting form (`form_post`).
extension AMRoutes {
    func authorize(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let parameters = request.parameters
        let challenge = parameters["code_challenge"] ?? ""
        let call = AuthorizeRequest(
            ssoToken: request.ssoToken(cookieName: config.cookieName) ?? "",
            clientId: parameters["client_id"] ?? "", redirectUri: parameters["redirect_uri"] ?? "",
            scope: parameters["scope"] ?? "", state: parameters["state"] ?? "", codeChallenge: challenge,
            // RFC 7636 §4.3: a challenge without a method is `plain`.
            codeChallengeMethod: parameters["code_challenge_method"] ?? (challenge.isEmpty ? "S256" : "plain"),
            responseType: parameters["response_type"] ?? "")
        let reply = try server.authorize(call)
        guard reply.status == 302, let location = reply.headers["Location"] else {
            return AMResponse.from(reply, headers: [AMResponse.noStore])
        }
        guard parameters["response_mode"] == "form_post" else {
            return HTTPResponse(status: 302, headers: [.init("Location", location), AMResponse.noStore])
        }
        return Self.formPost(to: location)
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
            fields.append(#"<input type="hidden" name="\#(html(name))" value="\#(html(value))"/>"#)
        }
        let page = """
            <!DOCTYPE html>
            <html><head><title>Submit This Form</title></head>
            <body onload="document.forms[0].submit()">
            <form method="post" action="\(html(target))">
            \(fields.joined(separator: "\n"))
            <noscript><button type="submit">Continue</button></noscript>
            </form></body></html>

            """
        return HTTPResponse(
            status: 200, headers: [.init("Content-Type", "text/html;charset=UTF-8"), AMResponse.noStore],
            body: Array(page.utf8))
    }

    private static func html(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
