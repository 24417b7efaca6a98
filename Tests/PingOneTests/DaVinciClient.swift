import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import PingOne

/// A PingOne server on a fresh embedded one, and a client that sends what ping-javascript-sdk's
/// `davinci-client` sends (`davinci.api.ts` `start`/`next`, `davinci.utils.ts`
/// `transformSubmitRequest`/`transformActionRequest`): the tests read as the protocol.
final class DaVinciClient {
    let clock = VirtualClock()
    let embedded: EmbeddedAM
    let pingOne: PingOne
    static let redirectUri = "https://com.example.reactnative.todo/callback"
    let verifier = "dBjftJeZ4CVP-mJ92K9ahIrp3OO0z9VvyTRiW1ZkCH8-verifier-of-fifty"
    /// The last answer that carried a form (what the client's node holds).
    var node: JSONValue = .null
    var cookies: [String: String] = [:]

    init(seed: UInt64 = 7) {
        let random = SeededRandomSource(seed: seed)
        embedded = EmbeddedAM(clock: clock, random: random)
        pingOne = PingOne(server: embedded, origin: "http://localhost:8080", clock: clock, random: random)
    }

    var env: String { pingOne.environmentId }

    func send(_ request: PingOneRequest) -> ServerReply {
        var request = request
        if !cookies.isEmpty, request.headers["cookie"] == nil {
            request.headers["cookie"] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: "; ")
        }
        let reply = pingOne.pingOne(request)
        for line in (reply.headers["Set-Cookie"] ?? "").split(separator: "\n") {
            let pair = line.prefix { $0 != ";" }.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            cookies[String(pair[0])] = pair[1].isEmpty ? nil : String(pair[1])
        }
        if reply.status == 200, reply.body["form"] != nil { node = reply.body }
        return reply
    }

    /// `GET /{env}/as/authorize?…&response_mode=pi.flow`, as `start` builds it.
    @discardableResult
    func start(flow: String? = nil, prompt: String? = nil, nonce: String? = nil) -> ServerReply {
        var query = [
            "client_id": "ReactNativeOAuthClient", "redirect_uri": Self.redirectUri, "response_type": "code",
            "response_mode": "pi.flow", "scope": "openid profile email", "state": "s1",
            "code_challenge": PKCE.challenge(for: verifier), "code_challenge_method": "S256",
        ]
        if let flow { query["acr_values"] = flow }
        if let prompt { query["prompt"] = prompt }
        if let nonce { query["nonce"] = nonce }
        return send(
            PingOneRequest(
                method: "GET", path: "/\(env)/as/authorize", query: query,
                headers: ["content-type": "application/x-www-form-urlencoded"]))
    }

    /// `POST _links.next.href` with the interaction headers and a submit (or action) body.
    @discardableResult
    func next(action: String, _ formData: JSONObject = [:], eventType: String = "submit") -> ServerReply {
        let href = node["_links"]?["next"]?["href"]?.stringValue ?? ""
        let path = String(href.dropFirst("http://localhost:8080".count))
        let body: JSONValue = [
            "id": node["id"] ?? "", "eventName": node["eventName"] ?? "", "interactionId": node["interactionId"] ?? "",
            "parameters": [
                "eventType": .string(eventType), "data": ["actionKey": .string(action), "formData": .object(formData)],
            ],
        ]
        return send(
            PingOneRequest(
                method: "POST", path: path,
                headers: [
                    "content-type": "application/json", "accept": "application/json",
                    "interactionid": node["interactionId"]?.stringValue ?? "",
                    "interactiontoken": node["interactionToken"]?.stringValue ?? "",
                ], json: body))
    }

    /// `POST /{env}/as/token` with the code and the PKCE verifier.
    func token(code: String) -> ServerReply {
        send(
            PingOneRequest(
                method: "POST", path: "/\(env)/as/token",
                form: [
                    "grant_type": "authorization_code", "code": code, "redirect_uri": Self.redirectUri,
                    "client_id": "ReactNativeOAuthClient", "code_verifier": verifier,
                ]))
    }

    var fields: [JSONValue] { node["form"]?["components"]?["fields"]?.arrayValue ?? [] }
    var fieldTypes: [String] { fields.compactMap { $0["type"]?.stringValue } }
    var formName: String? { node["form"]?["name"]?.stringValue }
}

extension ServerReply {
    var code: String? { body["authorizeResponse"]?["code"]?.stringValue }
    /// `details[0].rawResponse.details` of a DaVinci error.
    var problems: [JSONValue] { body["details"]?.arrayValue?.first?["rawResponse"]?["details"]?.arrayValue ?? [] }
}
