import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import PingOne
import Testing

/// A form's SOCIAL_LOGIN_BUTTON against the emulated providers (docs/davinci.md, "External
/// identity providers"): natively (the link's JSON, the provider SDK's credential posted back) and
/// in a browser (the link followed to the app with `continueToken`, then the resume).
struct IdpTests {
    static let flow: JSONValue = [
        "name": "social", "start": "choose",
        "nodes": [
            [
                "id": "choose",
                "form": [
                    "name": "Sign on with",
                    "fields": [
                        ["type": "SOCIAL_LOGIN_BUTTON", "key": "google", "label": "Google", "idpType": "GOOGLE"],
                        ["type": "SOCIAL_LOGIN_BUTTON", "key": "fb", "label": "Facebook", "idpType": "FACEBOOK"],
                        ["type": "TEXT", "key": "username"],
                    ],
                ],
                "next": ["google": "done", "fb": "done"],
            ],
            [
                "id": "done", "connector": "pingOneAuthenticationConnector",
                "capability": "returnSuccessResponseRedirect",
            ],
        ],
    ]

    static func client() throws -> DaVinciClient {
        let client = DaVinciClient()
        for flow in try DaVinciFlow.load(flow) { client.pingOne.add(flow: flow) }
        client.start(flow: "social")
        return client
    }

    static func field(_ client: DaVinciClient, _ key: String) -> JSONValue? {
        client.node["form"]?["components"]?["fields"]?.arrayValue?.first { $0["key"]?.stringValue == key }
    }

    /// A link's path and query as a request.
    static func request(
        _ method: String, _ url: String, headers: [String: String] = [:], json: JSONValue? = nil
    )
        -> PingOneRequest
    {
        let rest = String(url.dropFirst("http://localhost:8080".count))
        let path = String(rest.prefix { $0 != "?" })
        return PingOneRequest(
            method: method, path: path, query: PercentEncoding.queryParameters(of: rest), headers: headers, json: json)
    }

    @Test func aNativeHandlerFetchesTheClientThenPostsTheProvidersIdToken() throws {
        let client = try Self.client()
        let link = try #require(Self.field(client, "google")?["links"]?["authenticate"]?["href"]?.stringValue)
        #expect(link.hasPrefix("http://localhost:8080/\(client.env)/davinci/idp/google/authenticate?interactionId="))
        let idp = client.send(Self.request("GET", link, headers: ["accept": "application/json"]))
        #expect(idp.status == 200)
        let clientId = try #require(idp.body["idp"]?["clientId"]?.stringValue)
        let nonce = try #require(idp.body["idp"]?["nonce"]?.stringValue)
        #expect(idp.body["idp"]?["redirectUri"] == .string(DaVinciClient.redirectUri))
        let next = try #require(idp.body["_links"]?["next"]?["href"]?.stringValue)
        // The app's provider SDK signs in with what the link gave it.
        let credential = try client.embedded.socialProviders.signIn(
            SocialSignInRequest(kind: .google, clientId: clientId, scopes: ["openid"], nonce: nonce))
        let done = client.send(Self.request("POST", next, json: ["idToken": .string(credential.idToken ?? "")]))
        #expect(done.body["status"] == "COMPLETED")
        // Nobody had this identity or e-mail: a user provisioned with it and linked.
        let user = try #require(client.embedded.users.find(username: "sam.social@gmail.com"))
        #expect(user.attributes["aliasList"] == ["google-110169484474386276334"])
        let tokens = client.token(code: try #require(done.code))
        let access = try #require(tokens.body["access_token"]?.stringValue)
        #expect(client.embedded.userInfo(accessToken: access).body["sub"] == .string(user.id))
    }

    @Test func aFacebookAccessTokenLinksTheUserWithItsEmail() throws {
        let client = try Self.client()
        let link = try #require(Self.field(client, "fb")?["links"]?["authenticate"]?["href"]?.stringValue)
        let idp = client.send(Self.request("GET", link, headers: ["accept": "application/json"]))
        let credential = try client.embedded.socialProviders.signIn(
            SocialSignInRequest(
                kind: .facebook, clientId: idp.body["idp"]?["clientId"]?.stringValue ?? "", scopes: ["email"],
                nonce: ""))
        let next = idp.body["_links"]?["next"]?["href"]?.stringValue ?? ""
        let done = client.send(Self.request("POST", next, json: ["accessToken": .string(credential.accessToken ?? "")]))
        #expect(done.body["status"] == "COMPLETED")
        #expect(client.embedded.users.find(username: "demo")?.attributes["aliasList"] == ["facebook-10160987654321098"])
    }

    @Test func aRefusedCredentialIsAnErrorOnTheSameForm() throws {
        let client = try Self.client()
        let link = try #require(Self.field(client, "google")?["links"]?["authenticate"]?["href"]?.stringValue)
        let idp = client.send(Self.request("GET", link, headers: ["accept": "application/json"]))
        let next = idp.body["_links"]?["next"]?["href"]?.stringValue ?? ""
        // Signed for another client: its audience is wrong.
        let other = try client.embedded.socialProviders.signIn(
            SocialSignInRequest(kind: .google, clientId: "someone-else", scopes: [], nonce: ""))
        let refused = client.send(Self.request("POST", next, json: ["idToken": .string(other.idToken ?? "")]))
        #expect(refused.status == 400)
        #expect(refused.problems.first?["target"] == "google")
        #expect(refused.problems.first?["message"]?.stringValue?.contains("not for client") == true)
        // A link with another handle is not the interaction's.
        let forged = client.send(Self.request("GET", link.replacingHandle(), headers: ["accept": "application/json"]))
        #expect(forged.status == 400 && forged.body["code"] == "requestTimedOut")
    }

    @Test func aBrowserComesBackWithAContinueTokenAndResumes() throws {
        let client = try Self.client()
        let resume = try #require(client.node["_links"]?["continue"]?["href"]?.stringValue)
        let link = try #require(Self.field(client, "google")?["links"]?["authenticate"]?["href"]?.stringValue)
        let back = client.send(Self.request("GET", link, headers: ["accept": "text/html"]))
        #expect(back.status == 302)
        let location = try #require(back.headers["Location"])
        #expect(location.hasPrefix(DaVinciClient.redirectUri + "?continueToken="))
        let token = try #require(PercentEncoding.queryParameters(of: location)["continueToken"])
        let wrong = client.send(Self.request("POST", resume, headers: ["authorization": "Bearer nope"], json: [:]))
        #expect(wrong.body["code"] == "requestTimedOut")
        let done = client.send(Self.request("POST", resume, headers: ["authorization": "Bearer \(token)"], json: [:]))
        #expect(done.body["status"] == "COMPLETED" && done.code != nil)
    }
}

extension String {
    /// The link with its `t` handle replaced.
    fileprivate func replacingHandle() -> String {
        let parts = split(separator: "&").map {
            $0.hasPrefix("t=") ? "t=" + String(repeating: "0", count: 32) : String($0)
        }
        return parts.joined(separator: "&")
    }
}
