import AMHTTP
import AuthBridgeCore
import HTTPServer
import Host
import IdentityServer

/// `GET|POST /{envId}/signon/`: the sign-on page PingOne's `/as/authorize` sends a browser to
/// when it has no session (docs/davinci.md, "The sign-on page"), as PingOne hosts one for an
/// application whose policy is a DaVinci flow. The page is a client of the PingOne seam, as the
/// DaVinci widget of the hosted page is a client of PingOne's API: it starts the flow with the
/// authorize request's own parameters and `response_mode=pi.flow`, shows each form as HTML
/// (`PingOneSignOnForm`), posts each answer to the form's `_links.next` as davinci-client does
/// (`packages/davinci-client/src/lib/davinci.api.ts` in ForgeRock/ping-javascript-sdk), and at
/// the end sends the browser to the redirect URI with the code. It keeps no state: the form's JSON
/// travels in the page (its interaction token in PingOne's own cookies, as the flow sets them).
enum PingOneSignOnPage {
    static func surface(view: Host.View) -> HTTPSurface {
        let path = "/\(view.pingOneEnvironmentId)/\(PingOneSignOn.path)"
        return HTTPSurface(
            name: "pingone-signon", claims: { $0.path == path || $0.path + "/" == path },
            respond: { request, world in
                guard world.configuration.remote == nil else {
                    return HTML.signInPage(
                        404, title: "Sign On",
                        body: "<p class=\"error\">PingOne is emulated only with the embedded server.</p>\n")
                }
                do throws(TransportError) {
                    return try respond(request, world: world, environmentId: view.pingOneEnvironmentId)
                } catch {
                    // A fault dropped the request or let it time out: the connection's delivery closes it.
                    return HTTPResponse(status: 504, text: "fault\n")
                }
            })
    }

    static func respond(
        _ request: HTTPRequest, world: World, environmentId: String
    ) throws(TransportError) -> HTTPResponse {
        let browser = PingOneSurface.request(request)
        switch request.method {
        case "GET", "HEAD":
            // The authorize request again, as a DaVinci client sends it: the first form as JSON.
            var query = browser.query
            query["response_mode"] = "pi.flow"
            let reply = try world.pingOneServer.pingOne(
                PingOneRequest(
                    method: "GET", path: "/\(environmentId)/as/authorize", query: query,
                    headers: browser.headers.filter { $0.key == "cookie" }))
            return answer(reply, authorize: browser.query, posted: nil, world: world, environmentId: environmentId)
        case "POST":
            let fields = formPairs(request.body)
            let authorize = PercentEncoding.queryParameters(of: "?" + (fields.first { $0.0 == "authorize" }?.1 ?? ""))
            guard let stepText = fields.first(where: { $0.0 == "step" })?.1,
                let step = try? JSONParser.parse(stepText), let next = step["_links"]?["next"]?["href"]?.stringValue
            else {
                return HTML.signInPage(
                    400, title: "Sign On",
                    body:
                        "<p class=\"error\" role=\"alert\">The form came back without its step: start the sign-on again.</p>\n"
                )
            }
            let posted = PingOneSignOnForm.Posted(step: step, fields: fields)
            var headers = browser.headers.filter { $0.key == "cookie" }
            headers["content-type"] = "application/json"
            let reply = try world.pingOneServer.pingOne(
                PingOneRequest(
                    method: "POST", path: pathOf(next), headers: headers, json: posted.continueRequest))
            return answer(reply, authorize: authorize, posted: posted, world: world, environmentId: environmentId)
        default:
            return HTTPResponse(
                status: 405, headers: [.init("Allow", "GET, POST")], text: "the sign-on page takes GET and POST\n")
        }
    }

    /// What the browser sees for PingOne's answer: the next form, the form again with what was
    /// wrong, the redirect URI with the code, or why the flow ended.
    private static func answer(
        _ reply: ServerReply, authorize: [String: String], posted: PingOneSignOnForm.Posted?, world: World,
        environmentId: String
    ) -> HTTPResponse {
        let body = reply.body
        let again = "/\(environmentId)/as/authorize?" + query(authorize)
        let cookies = setCookies(reply)
        if body["status"]?.stringValue == "COMPLETED", let code = body["authorizeResponse"]?["code"]?.stringValue {
            // The redirect URI was checked by /as/authorize; the page checks it again, since it
            // came back from the browser.
            let redirectUri = authorize["redirect_uri"] ?? ""
            guard let client = world.embedded.clients.find(authorize["client_id"]),
                client.redirectUris.contains(redirectUri)
            else { return message(400, "The redirect URI is not this application's: start again", again: again) }
            var location =
                redirectUri + (redirectUri.contains("?") ? "&" : "?") + "code=" + PercentEncoding.escape(code)
            if let state = authorize["state"], !state.isEmpty { location += "&state=" + PercentEncoding.escape(state) }
            return HTTPResponse(
                status: 302, headers: [.init("Location", location), .init("Cache-Control", "no-store")] + cookies)
        }
        if body["form"] != nil {
            var response = PingOneSignOnForm.page(
                body, authorize: query(authorize), errors: [], message: nil, posted: nil)
            response.headers += cookies
            return response
        }
        if body["status"]?.stringValue == "FAILED" {
            return message(200, body["error"]?["message"]?.stringValue ?? "The sign-on ended", again: again)
        }
        if let posted, reply.status == 400, body["code"]?.stringValue != "requestTimedOut",
            let details = body["details"]?.arrayValue
        {
            // PingOne's validation errors: the same form again, with them.
            let errors = details.compactMap { detail -> (target: String, message: String)? in
                guard let message = detail["message"]?.stringValue else { return nil }
                return (detail["target"]?.stringValue ?? "", message)
            }
            let summary = body["message"]?.stringValue
            return PingOneSignOnForm.page(
                posted.step, authorize: query(authorize), errors: errors, message: summary, posted: posted)
        }
        if let error = body["error_description"]?.stringValue ?? body["message"]?.stringValue {
            return message(reply.status == 200 ? 400 : reply.status, error, again: body["error"] == nil ? again : nil)
        }
        return message(502, "PingOne answered \(reply.status) without a form", again: again)
    }

    private static func message(_ status: Int, _ text: String, again: String?) -> HTTPResponse {
        var body = "<p class=\"error\" role=\"alert\">\(HTML.escape(text))</p>\n"
        if let again { body += "<p><a href=\"\(HTML.escape(again))\">Start again</a></p>\n" }
        return HTML.signInPage(status, title: "Sign On", body: body)
    }

    /// The cookies PingOne set (the interaction's, the session's `ST`), for the browser.
    private static func setCookies(_ reply: ServerReply) -> [HTTPRequest.Header] {
        (reply.headers["Set-Cookie"] ?? "").split(separator: "\n").map { .init("Set-Cookie", String($0)) }
    }

    /// A link's path on this server (the origin PingOne built it on is the HTTP face's).
    private static func pathOf(_ href: String) -> String {
        let parts = href.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        // `http:`, ``, `host:port`, `rest`: the path is what follows the authority.
        guard parts.count == 4, parts[0].hasSuffix(":"), parts[1].isEmpty else { return href }
        return "/" + parts[3]
    }

    static func query(_ parameters: [String: String]) -> String {
        parameters.sorted { $0.key < $1.key }
            .map { "\(PercentEncoding.escape($0.key))=\(PercentEncoding.escape($0.value))" }.joined(separator: "&")
    }

    /// An `application/x-www-form-urlencoded` body as its pairs, in order and repeated names kept
    /// (a multi-select sends one pair per choice).
    static func formPairs(_ body: [UInt8]) -> [(String, String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (PercentEncoding.unescape(parts[0]), parts.count > 1 ? PercentEncoding.unescape(parts[1]) : "")
        }
    }
}
