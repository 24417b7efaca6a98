import AuthBridgeCore
import HTTPServer
import IdentityServer

/// `GET|POST …/UI/Login?realm=/<realm>&service=<journey>&goto=<authorize>`: the login page
/// `/authorize` sends a browser to when it needs a sign-in, as AM sends it to its login UI
/// (OpenIdentityPlatform/OpenAM `openam-oauth2/src/main/java/org/forgerock/openam/oauth2/OpenAMResourceOwnerSessionValidator.java`:
/// `<deployment>/UI/Login` with `realm`, `service` and `goto`). It runs the journey through the
/// server's `/authenticate`, one step per page, as server-rendered forms (`LoginForm.swift`): a
/// step's JSON travels in the form and comes back with the user's answers filled in, so the page
/// keeps no state and needs no script. On success it sets the session cookie and sends the browser
/// to `goto`; a failed journey shows AM's message over a fresh start of the same journey.
///
/// `goto` must name this server's authorize endpoint, as a path (`LoginPage.accepts`): the page
/// never sends a browser anywhere else, and `/authorize` has checked the client and its redirect
/// URI before sending anyone here.
enum LoginPage {
    /// The page under the deployment path the request came by (`/am` or none).
    static func path(deployedUnder requestPath: String) -> String {
        requestPath == "/am" || requestPath.hasPrefix("/am/") ? "/am/UI/Login" : "/UI/Login"
    }

    /// A `goto` this page follows: a path on this server (not `//host`, no backslash a browser
    /// would read as a slash) that routes to the authorize endpoint of this realm.
    static func accepts(_ goto: String, realm: String) -> Bool {
        guard goto.hasPrefix("/"), !goto.hasPrefix("//"), !goto.contains("\\") else { return false }
        guard !goto.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else { return false }
        let path = goto.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        return AMRoute.find(path ?? "", realm: realm) == .success(.authorize)
    }

    /// What every page of one sign-in carries from form to form.
    struct Context {
        /// Where the form posts: the page's own path.
        var action: String
        var realm: String
        var goto: String?
        /// The journey; nil for the server's default (`Login`).
        var service: String?
    }
}

extension AMRoutes {
    func loginPage(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let parameters = request.parameters
        if let realm = parameters["realm"], !realm.isEmpty, realm != config.realmPath, realm != config.realm {
            return LoginForm.message(
                404, "Realm '\(realm)' not found (this server serves \(config.realmPath))", context: nil)
        }
        let goto = parameters["goto"].flatMap { $0.isEmpty ? nil : $0 }
        if let goto, !LoginPage.accepts(goto, realm: config.realm) {
            return LoginForm.message(
                400, "The goto URL is not this server's authorize endpoint: \(goto)", context: nil)
        }
        let service =
            parameters["service"]
            ?? (parameters["authIndexType"] == "service" ? parameters["authIndexValue"] : nil)
        let context = LoginPage.Context(
            action: request.path, realm: config.realmPath, goto: goto,
            service: service.flatMap { $0.isEmpty ? nil : $0 })
        let session = request.ssoToken(cookieName: config.cookieName)
        guard request.method == "POST", let posted = parameters["step"] else {
            return try conclude(
                try server.authenticate(start(context, session: session)), posted: nil, context, session)
        }
        guard let step = try? JSONParser.parse(Array(posted.utf8)), step["authId"] != nil else {
            return LoginForm.message(400, "The form does not carry a journey step", context: context)
        }
        let answered = LoginForm.answer(step, with: request.formParameters)
        let call = AuthenticateRequest(payload: answered, ssoToken: session)
        return try conclude(try server.authenticate(call), posted: answered, context, session)
    }

    private func start(_ context: LoginPage.Context, session: String?) -> AuthenticateRequest {
        AuthenticateRequest(
            authIndexType: context.service == nil ? nil : "service", authIndexValue: context.service, ssoToken: session)
    }

    /// What the browser sees after one call to `/authenticate`.
    private func conclude(
        _ reply: ServerReply, posted: JSONValue?, _ context: LoginPage.Context, _ session: String?
    ) throws(TransportError) -> HTTPResponse {
        if reply.status == 200, reply.body["callbacks"] != nil {
            return LoginForm.step(reply.body, message: nil, context: context)
        }
        if reply.status == 200, reply.body["tokenId"] != nil {
            var headers = [AMResponse.noStore]
            if let cookie = reply.headers["Set-Cookie"] { headers.append(.init("Set-Cookie", cookie)) }
            guard let goto = context.goto else { return LoginForm.signedIn(headers: headers) }
            return HTTPResponse(status: 302, headers: [.init("Location", goto)] + headers)
        }
        let message = reply.body["message"]?.stringValue ?? HTTPResponse.reasonPhrase(reply.status)
        // A refused answer (400: not an index, a bad value) leaves the step answerable, as AM does.
        if reply.status == 400, let posted {
            return LoginForm.step(posted, message: message, context: context)
        }
        // The journey ended (401 Login failure, a timeout, a lockout): AM's message over a new start.
        if reply.status == 401, posted != nil {
            let again = try server.authenticate(start(context, session: session))
            if again.status == 200, again.body["callbacks"] != nil {
                return LoginForm.step(again.body, message: message, context: context)
            }
        }
        return LoginForm.message(reply.status, message, context: context)
    }
}
