import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import PingOne
import Testing

/// The flow engine: a flow file in, each collector's validation, scenario-decided connectors,
/// and the errors a client gets for requests the server cannot place.
struct FlowEngineTests {
    static let survey: JSONValue = [
        "name": "survey", "start": "ask",
        "nodes": [
            [
                "id": "ask",
                "form": [
                    "name": "Survey",
                    "fields": [
                        ["type": "LABEL", "content": "Tell us"],
                        [
                            "type": "DROPDOWN", "key": "colour", "label": "Colour", "required": true,
                            "options": [["label": "Red", "value": "red"], ["label": "Blue", "value": "blue"]],
                        ],
                        [
                            "type": "CHECKBOX", "key": "pets",
                            "options": [["label": "Cat", "value": "cat"], ["label": "Dog", "value": "dog"]],
                        ],
                        ["type": "PHONE_NUMBER", "key": "phone", "validatePhoneNumber": true],
                        ["type": "TEXT", "key": "username", "required": true],
                        ["type": "PASSWORD", "key": "password"],
                        ["type": "PROTECT", "key": "pingprotectsdk"],
                        [
                            "type": "DEVICE_REGISTRATION", "key": "method",
                            "options": [["type": "EMAIL", "title": "Email"], ["type": "SMS", "title": "Text"]],
                        ],
                        ["type": "SOCIAL_LOGIN_BUTTON", "key": "google", "idpType": "GOOGLE", "idpId": "g1"],
                        ["type": "SUBMIT_BUTTON", "key": "GO", "label": "Go"],
                    ],
                ],
                "next": ["GO": "check", "google": "risk"],
            ],
            [
                "id": "check", "connector": "pingOneSSOConnector", "capability": "checkPassword",
                "next": ["success": "risk"],
            ],
            [
                "id": "risk", "connector": "pingOneProtectConnector", "capability": "evaluate", "default": "low",
                "next": ["low": "done", "high": "deny"],
            ],
            ["id": "deny", "connector": "pingOneAuthenticationConnector", "capability": "returnErrorResponse"],
            [
                "id": "done", "connector": "pingOneAuthenticationConnector",
                "capability": "returnSuccessResponseRedirect",
            ],
        ],
    ]

    static func client() throws -> DaVinciClient {
        let client = DaVinciClient()
        for flow in try DaVinciFlow.load(survey) { client.pingOne.add(flow: flow) }
        client.start(flow: "survey")
        return client
    }

    static let good: JSONObject = [
        "colour": "red", "pets": ["cat"], "phone": ["countryCode": "US", "phoneNumber": "5555550100"],
        "username": "demo", "password": "Ch4ng3it!", "pingprotectsdk": "signals", "method": "EMAIL",
    ]

    @Test func eachCollectorRefusesWhatPingOneWould() throws {
        let cases: [(String, JSONValue, String)] = [
            ("colour", "green", "colour"), ("colour", "", "colour"), ("pets", ["fish"], "pets"),
            ("phone", ["countryCode": "US", "phoneNumber": "call me"], "phone"), ("username", "", "username"),
            ("password", 42, "password"), ("pingprotectsdk", ["x": 1], "pingprotectsdk"), ("method", "VOICE", "method"),
        ]
        for (key, value, target) in cases {
            let client = try Self.client()
            var data = Self.good
            data[key] = value
            let reply = client.next(action: "GO", data)
            #expect(reply.status == 400, "\(key)")
            #expect(reply.body["capabilityName"] == "customHTMLTemplate")
            #expect(reply.problems.first?["target"]?.stringValue == target, "\(key)")
        }
    }

    @Test func aValidFormRunsItsConnectorsAndAScenarioDecidesWhatCannotRun() throws {
        let client = try Self.client()
        #expect(client.next(action: "GO", Self.good).code != nil)
        let denied = try Self.client()
        try denied.pingOne.choose(flow: "survey", node: "risk", outcome: "high")
        let failed = denied.next(action: "GO", Self.good)
        #expect(failed.status == 200)
        #expect(failed.body["status"] == "FAILED")
        #expect(failed.body["error"]?["code"] == "flowFailed")
    }

    @Test func aFlowButtonIsAnActionAndSkipsValidation() throws {
        let client = try Self.client()
        // A social button: its key is the outcome; the scenario's default outcome, low, signs on
        // only with a user, which this flow has not found.
        let reply = client.next(action: "google", eventType: "action")
        #expect(reply.body["status"] == "FAILED")
        #expect(reply.body["error"]?["code"] == "noUser")
    }

    @Test func scenarioChoicesAreChecked() throws {
        let client = try Self.client()
        #expect(throws: FlowFormatError.self) {
            try client.pingOne.choose(flow: "survey", node: "risk", outcome: "medium")
        }
        #expect(throws: FlowFormatError.self) {
            try client.pingOne.choose(flow: "survey", node: "check", outcome: "success")
        }
        #expect(throws: FlowFormatError.self) { try client.pingOne.choose(flow: "nope", node: "risk", outcome: "low") }
    }

    @Test func anUnknownInteractionOrAWrongTokenTimesOut() throws {
        let client = try Self.client()
        client.node = .object(
            {
                var node = client.node.objectValue ?? [:]
                node["interactionToken"] = "forged"
                return node
            }())
        let reply = client.next(action: "GO", Self.good)
        #expect(reply.status == 400)
        #expect(reply.body["code"] == "requestTimedOut")
    }

    @Test func flowFilesAreCheckedWhenLoaded() {
        let bad: [(JSONValue, String)] = [
            (
                [
                    "name": "x", "start": "a",
                    "nodes": [["id": "a", "form": ["fields": [["type": "SLIDER", "key": "k"]]]]],
                ], "SLIDER"
            ),
            (
                ["name": "x", "start": "a", "nodes": [["id": "a", "form": ["fields": [["type": "TEXT"]]]]]],
                "needs a key"
            ),
            (["name": "x", "start": "b", "nodes": [["id": "a", "form": ["fields": []]]]], "start names no node"),
            (
                ["name": "x", "start": "a", "nodes": [["id": "a", "form": ["fields": []], "next": ["GO": "z"]]]],
                "leads to no node"
            ),
            (
                [
                    "name": "x", "start": "a",
                    "nodes": [
                        [
                            "id": "a", "connector": "pingOneSSOConnector", "capability": "checkPassword",
                            "next": ["maybe": "a"],
                        ]
                    ],
                ], "has no outcome maybe"
            ),
        ]
        for (json, words) in bad {
            #expect {
                _ = try DaVinciFlow.load(json)
            } throws: { error in
                (error as? FlowFormatError)?.reason.contains(words) == true
            }
        }
    }

    @Test func theOIDCEndpointsLiveUnderTheEnvironment() {
        let client = DaVinciClient()
        let discovery = client.send(
            PingOneRequest(method: "GET", path: "/\(client.env)/as/.well-known/openid-configuration"))
        #expect(discovery.body["issuer"] == .string("http://localhost:8080/\(client.env)/as"))
        #expect(discovery.body["end_session_endpoint"] == .string("http://localhost:8080/\(client.env)/as/signoff"))
        #expect(client.send(PingOneRequest(method: "GET", path: "/other/as/authorize")).status == 404)
        var bad = PingOneRequest(method: "GET", path: "/\(client.env)/as/authorize")
        bad.query = ["client_id": "nobody", "response_mode": "pi.flow"]
        #expect(client.send(bad).body["error"] == "invalid_client")
    }
}
