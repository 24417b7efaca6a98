import AuthBridgeCore
import IdentityServer
import Testing

@testable import NativeSDK

/// A PingOne environment with one form: discovery, the authorize request answered with the form
/// (`response_mode=pi.flow`), the continue request answered with the code, and the token endpoint.
final class OneFormPingOne: PingOneServer {
    let environmentId = "env1"
    private(set) var requests: [PingOneRequest] = []
    private let base = "https://auth.pingone.test/env1"

    func pingOne(_ request: PingOneRequest) throws(TransportError) -> ServerReply {
        requests.append(request)
        switch request.path {
        case "/env1/as/.well-known/openid-configuration":
            return ServerReply(
                status: 200,
                body: [
                    "authorization_endpoint": .string("\(base)/as/authorize"),
                    "token_endpoint": .string("\(base)/as/token"),
                    "userinfo_endpoint": .string("\(base)/as/userinfo"),
                    "revocation_endpoint": .string("\(base)/as/revoke"),
                    "end_session_endpoint": .string("\(base)/as/signoff"),
                ])
        case "/env1/as/authorize":
            return ServerReply(
                status: 200,
                body: [
                    "id": "form1", "eventName": "continue", "interactionId": "i1",
                    "_links": [
                        "next": ["href": .string("\(base)/davinci/connections/c1/capabilities/customHTMLTemplate")]
                    ],
                    "form": [
                        "name": "Sign On",
                        "components": [
                            "fields": [
                                ["type": "TEXT", "key": "username", "label": "Username", "required": true],
                                ["type": "PASSWORD", "key": "password", "label": "Password"],
                                ["type": "SUBMIT_BUTTON", "key": "submit", "label": "Sign On"],
                                ["type": "AGREEMENT", "key": "terms"],
                            ]
                        ],
                    ],
                ], headers: ["Set-Cookie": "interactionId=i1; Path=/"])
        case "/env1/davinci/connections/c1/capabilities/customHTMLTemplate":
            return ServerReply(status: 200, body: ["authorizeResponse": ["code": "code-1"], "interactionId": "i1"])
        case "/env1/as/token":
            return ServerReply(
                status: 200, body: ["access_token": "at", "refresh_token": "rt", "expires_in": 3600, "scope": "openid"])
        default:
            return ServerReply(status: 404, body: ["code": "NOT_FOUND", "message": "No such path"])
        }
    }
}

@Suite struct PingDavinciClientFlow {
    let pingOne = OneFormPingOne()

    func client(_ platform: Platform) -> PingDavinciClient {
        PingSDK(
            platform: platform, server: ScriptedTokenServer(), clock: VirtualClock(),
            random: SeededRandomSource(seed: 1), pingOne: pingOne
        ).davinci(
            PingDavinciConfig(
                discoveryEndpoint: "https://auth.pingone.test/env1/as/.well-known/openid-configuration",
                clientId: "app", redirectUri: "app://cb", scopes: ["openid", "profile"]))
    }

    @Test func startSendsThePiFlowAuthorizeRequestAndNextPostsTheForm() throws {
        let client = client(.ios)
        guard case .next(var form) = client.start() else {
            Issue.record("no form")
            return
        }
        let authorize = try #require(pingOne.requests.last)
        #expect(authorize.method == "GET" && authorize.query["response_mode"] == "pi.flow")
        #expect(authorize.query["client_id"] == "app" && authorize.query["scope"] == "openid profile")
        #expect(authorize.query["code_challenge_method"] == "S256")
        #expect(authorize.headers["x-requested-platform"] == "ios")
        // AGREEMENT has no collector class: dropped from the collectors.
        #expect(form.collectors.map(\.key) == ["username", "password", "submit"])
        form.collectors[0].value = "ada"
        form.collectors[1].value = "pw"
        form.collectors[2].value = "submit"
        guard case .success(_, let code) = client.next(form) else {
            Issue.record("no success")
            return
        }
        #expect(code == "code-1")
        let post = try #require(pingOne.requests.last)
        #expect(post.headers["cookie"] == "interactionId=i1")
        #expect(
            post.json
                == [
                    "id": "form1", "eventName": "continue",
                    "parameters": [
                        "eventType": "submit",
                        "data": ["actionKey": "submit", "formData": ["username": "ada", "password": "pw"]],
                    ],
                ])
        // iOS exchanges the code at the first token() (with the verifier), once.
        #expect(pingOne.requests.filter { $0.path == "/env1/as/token" }.isEmpty)
        #expect(try client.token().value == "at")
        let exchange = try #require(pingOne.requests.last)
        #expect(exchange.form["code"] == "code-1" && exchange.form["code_verifier"] != nil)
    }

    @Test func androidExchangesTheCodeAtSuccessAndSendsNoPlatformHeader() throws {
        let client = client(.android)
        guard case .next(let form) = client.start() else {
            Issue.record("no form")
            return
        }
        #expect(pingOne.requests.last?.headers["x-requested-platform"] == nil)
        _ = client.next(form)
        #expect(pingOne.requests.last?.path == "/env1/as/token")
    }

    @Test func withoutAPingOneEnvironmentStartFails() {
        let client = PingSDK(
            platform: .ios, server: ScriptedTokenServer(), clock: VirtualClock(), random: SeededRandomSource(seed: 1)
        ).davinci(
            PingDavinciConfig(discoveryEndpoint: "https://x/env/as/d", clientId: "a", redirectUri: "b", scopes: []))
        #expect(client.start() == .failure(.init(status: nil, content: "No PingOne environment is served here")))
    }
}

@Suite struct DavinciCollectorPayloads {
    static let field: JSONValue = [
        "type": "DEVICE_AUTHENTICATION", "key": "device",
        "options": [["type": "SMS", "id": "sms", "title": "Text Message", "iconSrc": "https://x/sms.svg"]],
    ]

    @Test func anAuthenticationDeviceGoesAsTypeIdAndDescription() throws {
        var ios = try #require(DavinciCollector(field: Self.field, platform: .ios))
        ios.value = try #require(Self.field["options"]?.arrayValue?.first)
        #expect(ios.payload == ["type": "SMS", "id": "sms"])
        var android = try #require(DavinciCollector(field: Self.field, platform: .android))
        android.value = ["type": "VOICE", "title": "VOICE"]
        #expect(android.payload == ["type": "VOICE", "id": .null, "description": ""])
    }
}
