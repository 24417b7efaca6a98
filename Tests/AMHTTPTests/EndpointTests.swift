import AuthBridgeCore
import HTTPServer
import IdentityServer
import Testing

@testable import AMHTTP

/// An identity server that answers what it is told to and remembers what it was asked: each
/// endpoint is seen as the HTTP request in, the call it makes, and the HTTP response out.
final class ScriptedServer: IdentityServer {
    enum Call: Equatable {
        case authenticate(AuthenticateRequest)
        case authorize(AuthorizeRequest)
        case token([String: String])
        case userInfo(String)
        case revoke([String: String])
        case endSession(idTokenHint: String, clientId: String?, at: EndSessionEndpoint)
        case logoutSession(String)
        case validateSession(String)
        case sessionInfo(String, refresh: Bool)
        case introspect([String: String])
        case jwks
        case devices(DevicesRequest)
        case pushMessage(PushAction, JSONValue)
    }

    var calls: [Call] = []
    var reply = ServerReply(status: 200, body: ["ok": true])
    /// Replies for the next calls, in order, before `reply` answers the rest.
    var replies: [ServerReply] = []
    var unreachable: TransportError?

    private func answer(_ call: Call) throws(TransportError) -> ServerReply {
        calls.append(call)
        if let unreachable { throw unreachable }
        if !replies.isEmpty { return replies.removeFirst() }
        return reply
    }

    func authenticate(_ request: AuthenticateRequest) throws(TransportError) -> ServerReply {
        try answer(.authenticate(request))
    }
    func authorize(_ request: AuthorizeRequest) throws(TransportError) -> ServerReply {
        try answer(.authorize(request))
    }
    func token(form: [String: String]) throws(TransportError) -> ServerReply { try answer(.token(form)) }
    func userInfo(accessToken: String) throws(TransportError) -> ServerReply { try answer(.userInfo(accessToken)) }
    func revoke(form: [String: String]) throws(TransportError) -> ServerReply { try answer(.revoke(form)) }
    func endSession(
        idTokenHint: String, clientId: String?, at endpoint: EndSessionEndpoint
    ) throws(TransportError) -> ServerReply {
        try answer(.endSession(idTokenHint: idTokenHint, clientId: clientId, at: endpoint))
    }
    func logoutSession(ssoToken: String) throws(TransportError) -> ServerReply { try answer(.logoutSession(ssoToken)) }
    func validateSession(ssoToken: String) throws(TransportError) -> ServerReply {
        try answer(.validateSession(ssoToken))
    }
    func sessionInfo(ssoToken: String, refresh: Bool) throws(TransportError) -> ServerReply {
        try answer(.sessionInfo(ssoToken, refresh: refresh))
    }
    func introspect(form: [String: String]) throws(TransportError) -> ServerReply { try answer(.introspect(form)) }
    func jwks() throws(TransportError) -> ServerReply { try answer(.jwks) }
    func devices(_ request: DevicesRequest) throws(TransportError) -> ServerReply { try answer(.devices(request)) }
    func pushMessage(_ action: PushAction, body: JSONValue) throws(TransportError) -> ServerReply {
        try answer(.pushMessage(action, body))
    }
}

/// One exchange with `AMRoutes` over a scripted server.
struct Exchange {
    let server = ScriptedServer()
    let routes: AMRoutes

    static let json = "/am/json/realms/root/realms/alpha"
    static let oauth = "/am/oauth2/realms/root/realms/alpha"

    init(corsOrigins: [String] = []) {
        let config = AMHTTPConfig(
            baseURL: "http://127.0.0.1:8080/am", issuer: "http://127.0.0.1:8080/am/oauth2", realm: "alpha",
            cookieName: "iPlanetDirectoryPro",
            clients: [
                .init(
                    clientId: "web", redirectUris: ["http://localhost:3000/callback"],
                    postLogoutRedirectUris: ["http://localhost:3000/"])
            ],
            scopes: ["openid", "profile"], corsOrigins: corsOrigins)
        routes = AMRoutes(server: server, config: config)
    }

    func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: String = "") -> HTTPResponse {
        let request = HTTPRequest(
            method: method, target: target, headers: headers.map { HTTPRequest.Header($0.0, $0.1) },
            body: Array(body.utf8))
        return routes.respond(to: request)
    }
}

extension HTTPResponse {
    var json: JSONValue? { try? JSONParser.parse(String(decoding: body, as: UTF8.self)) }
    var text: String { String(decoding: body, as: UTF8.self) }
}

@Suite struct AuthenticateEndpoint {
    @Test func theFirstCallNamesTheJourneyAndTheSessionCookieGoesAlong() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(status: 200, body: ["authId": "a1", "callbacks": []])
        let response = exchange.send(
            "POST", Exchange.json + "/authenticate?authIndexType=service&authIndexValue=Login&ForceAuth=true",
            headers: [("Accept-API-Version", "resource=2.1, protocol=1.0"), ("Cookie", "iPlanetDirectoryPro=sso1")])
        #expect(
            exchange.server.calls == [
                .authenticate(
                    .init(authIndexType: "service", authIndexValue: "Login", ssoToken: "sso1", forceAuth: true))
            ])
        #expect(response.status == 200)
        #expect(response.json == ["authId": "a1", "callbacks": []])
        #expect(response.header("Content-Type") == "application/json;charset=UTF-8")
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.header("Content-API-Version") == "resource=2.1")
    }

    @Test func aStepPostedBackIsRoutedByItsPayloadAndSuspendedIdResumes() {
        let exchange = Exchange()
        _ = exchange.send("POST", Exchange.json + "/authenticate", body: #"{"authId":"a1","callbacks":[]}"#)
        _ = exchange.send("POST", Exchange.json + "/authenticate?suspendedId=s9&noSession=true")
        #expect(
            exchange.server.calls == [
                .authenticate(.init(payload: ["authId": "a1", "callbacks": []])),
                .authenticate(.init(suspendedId: "s9", noSession: true)),
            ])
    }

    @Test func aCompositeAdviceNamingATreeStartsIt() {
        let exchange = Exchange()
        let advice = PercentEncoding.escape(
            #"<Advices><AttributeValuePair><Attribute name="AuthenticateToServiceConditionAdvice"/><Value>alpha:Step</Value></AttributeValuePair></Advices>"#
        )
        _ = exchange.send(
            "POST", Exchange.json + "/authenticate?authIndexType=composite_advice&authIndexValue=\(advice)")
        #expect(exchange.server.calls == [.authenticate(.init(authIndexType: "service", authIndexValue: "Step"))])
    }

    @Test func badRequestsAreRefusedWithoutReachingTheServer() {
        let exchange = Exchange()
        let notJSON = exchange.send("POST", Exchange.json + "/authenticate", body: "[1]")
        #expect(notJSON.status == 400)
        #expect(notJSON.json?["message"] == "The request body is not a JSON object")
        let advice = exchange.send(
            "POST", Exchange.json + "/authenticate?authIndexType=composite_advice&authIndexValue=nonsense")
        #expect(advice.status == 400)
        #expect(advice.json?["message"]?.stringValue?.hasPrefix("Unsupported composite advice") == true)
        let version = exchange.send(
            "POST", Exchange.json + "/authenticate", headers: [("Accept-API-Version", "resource=9.0")])
        #expect(version.status == 404)
        #expect(version.json?["message"] == #"Accept-API-Version: Requested version "9.0" does not match any routes."#)
        #expect(exchange.server.calls == [])
    }

    @Test func aFailureKeepsTheServersStatusAndBody() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(status: 401, body: AMErrors.loginFailure)
        let response = exchange.send("POST", Exchange.json + "/authenticate?authIndexType=service&authIndexValue=Login")
        #expect(response.status == 401)
        #expect(response.json == AMErrors.loginFailure)
    }
}

@Suite struct SessionsEndpoint {
    @Test func logoutNamesTheSessionByBodyHeaderOrCookieAndClearsTheCookie() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(status: 200, body: ["result": "Successfully logged out"])
        let byBody = exchange.send("POST", Exchange.json + "/sessions?_action=logout", body: #"{"tokenId":"t1"}"#)
        _ = exchange.send("POST", Exchange.json + "/sessions?_action=logout", headers: [("iPlanetDirectoryPro", "t2")])
        _ = exchange.send(
            "POST", Exchange.json + "/sessions?_action=logout", headers: [("Cookie", "iPlanetDirectoryPro=t3")])
        #expect(exchange.server.calls == [.logoutSession("t1"), .logoutSession("t2"), .logoutSession("t3")])
        #expect(byBody.status == 200)
        #expect(byBody.json == ["result": "Successfully logged out"])
        #expect(
            byBody.header("Set-Cookie")
                == "iPlanetDirectoryPro=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/")
    }

    @Test func eachActionReachesItsCall() {
        let exchange = Exchange()
        for action in ["validate", "getSessionInfo", "refresh"] {
            _ = exchange.send("POST", Exchange.json + "/sessions?_action=\(action)", body: #"{"tokenId":"t"}"#)
        }
        #expect(
            exchange.server.calls == [
                .validateSession("t"), .sessionInfo("t", refresh: false), .sessionInfo("t", refresh: true),
            ])
    }

    @Test func withoutASessionOrAnActionTheAnswerIsAMs() {
        let exchange = Exchange()
        let logout = exchange.send("POST", Exchange.json + "/sessions?_action=logout")
        #expect(logout.status == 401)
        #expect(logout.json == AMErrors.accessDenied)
        let validate = exchange.send("POST", Exchange.json + "/sessions?_action=validate")
        #expect(validate.status == 200)
        #expect(validate.json == ["valid": false])
        let unknown = exchange.send("POST", Exchange.json + "/sessions?_action=shred", body: #"{"tokenId":"t"}"#)
        #expect(unknown.status == 501)
        #expect(unknown.json?["message"] == "Action 'shred' not implemented for this resource")
        let none = exchange.send("POST", Exchange.json + "/sessions", body: #"{"tokenId":"t"}"#)
        #expect(none.status == 400)
        #expect(exchange.server.calls == [])
    }
}

@Suite struct OAuthEndpoint {
    @Test func authorizeCallsWithThePKCEParametersAndRedirects() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(
            status: 302, headers: ["Location": "http://localhost:3000/callback?code=c1&state=s"])
        let query =
            "client_id=web&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback&scope=openid&state=s"
            + "&code_challenge=ch&code_challenge_method=S256&response_type=code&nonce=n-0S6_WzA2Mj"
        let response = exchange.send(
            "GET", Exchange.oauth + "/authorize?" + query, headers: [("Cookie", "iPlanetDirectoryPro=sso1")])
        #expect(
            exchange.server.calls == [
                .authorize(
                    .init(
                        ssoToken: "sso1", clientId: "web", redirectUri: "http://localhost:3000/callback",
                        scope: "openid", state: "s", codeChallenge: "ch", nonce: "n-0S6_WzA2Mj"))
            ])
        #expect(response.status == 302)
        #expect(response.header("Location") == "http://localhost:3000/callback?code=c1&state=s")
        #expect(response.header("Cache-Control") == "no-store")
    }

    @Test func aChallengeWithoutAMethodIsPlainAndFormPostAnswersAPage() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(
            status: 302, headers: ["Location": "http://localhost:3000/callback?code=c1"])
        let response = exchange.send(
            "GET",
            Exchange.oauth + "/authorize?client_id=web&code_challenge=ch&response_mode=form_post&response_type=code")
        guard case .authorize(let call) = exchange.server.calls.first else {
            Issue.record("no authorize call: \(exchange.server.calls)")
            return
        }
        #expect(call.codeChallengeMethod == "plain")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/html;charset=UTF-8")
        #expect(response.text.contains(#"<form method="post" action="http://localhost:3000/callback">"#))
        #expect(response.text.contains(#"<input type="hidden" name="code" value="c1"/>"#))
    }

    @Test func tokenRevokeAndIntrospectPassTheFormOn() {
        let exchange = Exchange()
        let token = exchange.send(
            "POST", Exchange.oauth + "/access_token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "grant_type=refresh_token&refresh_token=r1&client_id=web")
        _ = exchange.send(
            "POST", Exchange.oauth + "/token/revoke", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "token=r1&client_id=web")
        _ = exchange.send(
            "POST", Exchange.oauth + "/introspect", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "token=a1")
        #expect(
            exchange.server.calls == [
                .token(["grant_type": "refresh_token", "refresh_token": "r1", "client_id": "web"]),
                .revoke(["token": "r1", "client_id": "web"]), .introspect(["token": "a1"]),
            ])
        #expect(token.header("Pragma") == "no-cache")
    }

    @Test func userInfoTakesTheBearerTokenAndChallengesWithoutOne() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(status: 200, body: ["sub": "demo"])
        let claims = exchange.send("GET", Exchange.oauth + "/userinfo", headers: [("Authorization", "Bearer a1")])
        #expect(exchange.server.calls == [.userInfo("a1")])
        #expect(claims.json == ["sub": "demo"])
        let missing = exchange.send("GET", Exchange.oauth + "/userinfo")
        #expect(missing.status == 401)
        #expect(missing.header("WWW-Authenticate") == #"Bearer realm="/alpha""#)
        exchange.server.reply = ServerReply(status: 401, body: AMErrors.oauth("invalid_token", "expired"))
        let refused = exchange.send("GET", Exchange.oauth + "/userinfo", headers: [("Authorization", "Bearer old")])
        #expect(
            refused.header("WWW-Authenticate")
                == #"Bearer realm="/alpha", error="invalid_token", error_description="expired""#)
    }

    @Test func endSessionRedirectsOnlyToAPostLogoutRedirectURI() {
        let exchange = Exchange()
        let registered = exchange.send(
            "GET",
            Exchange.oauth
                + "/connect/endSession?id_token_hint=i1&client_id=web&post_logout_redirect_uri=http%3A%2F%2Flocalhost%3A3000%2F&state=a%20b"
        )
        #expect(exchange.server.calls == [.endSession(idTokenHint: "i1", clientId: "web", at: .endSessionEndpoint)])
        #expect(registered.status == 302)
        #expect(registered.header("Location") == "http://localhost:3000/?state=a%20b")
        let mismatch: JSONValue = [
            "error_description": "The redirection URI provided does not match a pre-registered value.",
            "error": "redirect_uri_mismatch",
        ]
        // The client's redirect URI is not a post-logout one: the lists are AM's two settings.
        for target in ["https%3A%2F%2Fevil.example", "http%3A%2F%2Flocalhost%3A3000%2Fcallback"] {
            let refused = exchange.send(
                "GET", Exchange.oauth + "/connect/endSession?id_token_hint=i1&post_logout_redirect_uri=\(target)")
            #expect(refused.status == 400)
            #expect(refused.header("Location") == nil)
            #expect(refused.json == mismatch)
        }
    }

    @Test func discoveryNamesEveryEndpointUnderTheLongRealmPath() {
        let document = Exchange().send("GET", Exchange.oauth + "/.well-known/openid-configuration").json
        #expect(document?["issuer"] == "http://127.0.0.1:8080/am/oauth2")
        #expect(document?["token_endpoint"] == "http://127.0.0.1:8080/am/oauth2/realms/root/realms/alpha/access_token")
        #expect(document?["scopes_supported"] == ["openid", "profile"])
        #expect(document?["id_token_signing_alg_values_supported"] == ["RS256", "ES256", "PS256"])
        let exchange = Exchange()
        exchange.server.reply = ServerReply(status: 200, body: ["keys": [["kty": "RSA", "kid": "k1"]]])
        #expect(
            exchange.send("GET", Exchange.oauth + "/connect/jwk_uri").json == ["keys": [["kty": "RSA", "kid": "k1"]]])
        #expect(exchange.server.calls == [.jwks])
    }
}

@Suite struct RoutesAroundTheEndpoints {
    @Test func unknownPathsRealmsAndMethodsAreAMsErrors() {
        let exchange = Exchange()
        let path = exchange.send("GET", "/am/json/nothing")
        #expect(path.status == 404)
        #expect(path.json?["message"] == "Resource '/am/json/nothing' not found")
        let realm = exchange.send("POST", "/am/json/realms/root/realms/bravo/authenticate")
        #expect(realm.status == 404)
        #expect(realm.json?["message"] == "Realm 'bravo' not found (this server serves /alpha)")
        let method = exchange.send("DELETE", Exchange.json + "/authenticate")
        #expect(method.status == 405)
        #expect(method.header("Allow") != nil)
        #expect(exchange.server.calls == [])
    }

    @Test func anUnreachableServerIsA502NamingTheCause() {
        let exchange = Exchange()
        exchange.server.unreachable = TransportError("connection refused")
        let response = exchange.send("POST", Exchange.json + "/authenticate?authIndexType=service&authIndexValue=Login")
        #expect(response.status == 502)
        #expect(response.json?["message"] == "The identity server could not be reached: connection refused")
    }

    @Test func serverInfoReportsTheCookieName() {
        let info = Exchange().send("GET", Exchange.json + "/serverinfo/*")
        #expect(info.json?["cookieName"] == "iPlanetDirectoryPro")
        #expect(info.json?["realm"] == "/alpha")
    }

    @Test func onlyAConfiguredOriginGetsCORSHeaders() {
        let exchange = Exchange(corsOrigins: ["http://localhost:3000"])
        let preflight = exchange.send(
            "OPTIONS", Exchange.json + "/authenticate",
            headers: [
                ("Origin", "http://localhost:3000"), ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
            ])
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == "http://localhost:3000")
        #expect(preflight.header("Access-Control-Allow-Headers") == "content-type")
        let refused = exchange.send(
            "OPTIONS", Exchange.json + "/authenticate",
            headers: [("Origin", "http://evil.example"), ("Access-Control-Request-Method", "POST")])
        #expect(refused.status == 403)
        let allowed = exchange.send(
            "GET", Exchange.json + "/serverinfo/*", headers: [("Origin", "http://localhost:3000")])
        #expect(allowed.header("Access-Control-Allow-Credentials") == "true")
        let other = exchange.send("GET", Exchange.json + "/serverinfo/*", headers: [("Origin", "http://evil.example")])
        #expect(other.header("Access-Control-Allow-Origin") == nil)
    }
}

@Suite struct PushMessageEndpoint {
    @Test func anAuthenticatorsAnswerReachesTheServerUnderEveryRealmLayout() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(status: 200, body: [:])
        let body = #"{"messageId":"AUTHENTICATE:1","jwt":"a.b.c"}"#
        for path in [
            Exchange.json + "/push/sns/message", "/am/json/alpha/push/sns/message",
            "/json/realms/alpha/push/sns/message",
        ] {
            let response = exchange.send(
                "POST", path + "?_action=authenticate",
                headers: [("Accept-API-Version", "resource=1.0, protocol=1.0"), ("Content-Type", "application/json")],
                body: body)
            #expect(response.status == 200)
            #expect(response.json == [:])
            #expect(response.header("Content-API-Version") == "resource=1.0")
        }
        _ = exchange.send("POST", Exchange.json + "/push/sns/message?_action=register", body: body)
        let sent: JSONValue = ["messageId": "AUTHENTICATE:1", "jwt": "a.b.c"]
        #expect(
            exchange.server.calls
                == [
                    .pushMessage(.authenticate, sent), .pushMessage(.authenticate, sent),
                    .pushMessage(.authenticate, sent),
                    .pushMessage(.register, sent),
                ])
    }

    @Test func theServersRefusalIsPassedOnAndBadRequestsNeverReachIt() {
        let exchange = Exchange()
        exchange.server.reply = ServerReply(
            status: 400, body: ["code": 400, "reason": "Bad Request", "message": "Bad Request"])
        let refused = exchange.send(
            "POST", Exchange.json + "/push/sns/message?_action=register", body: #"{"messageId":"REGISTER:1"}"#)
        #expect(refused.status == 400)
        #expect(refused.json?["reason"] == "Bad Request")
        exchange.server.calls = []
        #expect(exchange.send("POST", Exchange.json + "/push/sns/message", body: "{}").status == 400)
        #expect(exchange.send("POST", Exchange.json + "/push/sns/message?_action=refresh", body: "{}").status == 501)
        #expect(exchange.send("POST", Exchange.json + "/push/sns/message?_action=register", body: "[]").status == 400)
        #expect(exchange.send("GET", Exchange.json + "/push/sns/message?_action=register").status == 405)
        #expect(
            exchange.send(
                "POST", Exchange.json + "/push/sns/message?_action=register",
                headers: [("Accept-API-Version", "resource=2.0")],
                body: "{}"
            ).status == 404)
        #expect(exchange.server.calls.isEmpty)
    }
}
