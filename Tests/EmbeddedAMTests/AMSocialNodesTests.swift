import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's Select Identity Provider and WebAuthn nodes: the steps they render and the outcome
/// each answer leads to. WebAuthnVerificationTests has the verification of the answers.
struct AMSocialNodesTests {
    typealias T = AMMoreNodesTests
    typealias Nodes = [(id: String, type: String, connections: JSONObject, config: JSONObject)]

    /// An export whose tree "T" has `socialIdentityProviders`, which Select IdP offers.
    static func harness(_ nodes: Nodes, providers: [String]) throws -> Harness {
        let user: (id: String, type: String, connections: JSONObject, config: JSONObject) = (
            "u", "UsernameCollectorNode", ["outcome": "n"], [:]
        )
        var export = try JSONParser.parse(AMExports.tree("T", entry: "u", [user] + nodes + [T.marker]))
        guard case .object(var root) = export, case .object(var trees)? = root["trees"],
            case .object(var tree)? = trees["T"]
        else { fatalError() }
        var configs = JSONObject(
            providers.map {
                (
                    $0,
                    [
                        "_id": .string($0), "enabled": true,
                        "uiConfig": ["buttonDisplayName": .string($0.prefix(1).uppercased() + $0.dropFirst())],
                    ]
                )
            })
        configs["disabled"] = ["_id": "disabled", "enabled": false]
        tree["socialIdentityProviders"] = .object(configs)
        trees["T"] = .object(tree)
        root["trees"] = .object(trees)
        export = .object(root)
        let h = Harness()
        for journey in try AMExports.load([JSONWriter.compact(export)]) { h.am.add(journey: journey) }
        return h
    }

    static let select: Nodes = [
        (
            "n", "SelectIdPNode", ["socialAuthentication": "marker", "localAuthentication": T.success],
            [
                "includeLocalAuthentication": true, "offerOnlyExisting": false, "filteredProviders": [],
                "identityAttribute": "mail", "passwordAttribute": "password",
            ]
        )
    ]

    @Test func selectIdPOffersTheProvidersThenLocal() throws {
        let h = try Self.harness(Self.select, providers: ["google", "apple"])
        let step = T.begin(h).body
        #expect(T.types(step) == ["SelectIdPCallback"])
        #expect(
            T.output(step, 0, "providers") == [
                ["provider": "apple", "uiConfig": ["buttonDisplayName": "Apple"]],
                ["provider": "google", "uiConfig": ["buttonDisplayName": "Google"]],
                ["provider": "localAuthentication"],
            ])
        #expect(T.output(step, 0, "value") == "")
        // A provider the tenant switched off is not offered.
        #expect(T.input(step, 0) == "")
        #expect(h.submit(step, [:]).body["tokenId"] != nil, "nothing chosen: local authentication")
        #expect(T.reachedMarker(h.submit(T.begin(h).body, ["IDToken1": "google"])))
        #expect(
            T.types(h.submit(T.begin(h).body, ["IDToken1": "facebook"]).body) == ["SelectIdPCallback"],
            "not offered: asked again")
    }

    @Test func selectIdPWithOneOptionSendsNothingAndNoneStopsTheLoad() throws {
        let h = try Self.harness(Self.select, providers: [])
        #expect(T.begin(h).body["tokenId"] != nil, "local only: straight on")
        let filtered: Nodes = [
            (
                "n", "SelectIdPNode", ["socialAuthentication": "marker", "localAuthentication": T.success],
                ["includeLocalAuthentication": false, "filteredProviders": ["google"]]
            )
        ]
        #expect(
            T.reachedMarker(T.begin(try Self.harness(filtered, providers: ["google", "apple"]))), "google only: social")
        do {
            _ = try Self.harness(filtered, providers: ["apple"])
            Issue.record("loaded")
        } catch {
            #expect("\(error)".contains("no provider to offer"))
        }
    }

    static let registerThenAuthenticate: Nodes = [
        (
            "n", "WebAuthnRegistrationNode",
            ["success": "auth", "failure": T.failure, "error": "marker", "unsupported": T.failure],
            [
                "relyingPartyName": "Example", "userVerificationRequirement": "PREFERRED", "timeout": 60,
                "asScript": false,
            ]
        ),
        (
            "auth", "WebAuthnAuthenticationNode",
            [
                "success": T.success, "failure": T.failure, "error": T.failure, "unsupported": T.failure,
                "noDevice": "marker",
            ],
            [
                "userVerificationRequirement": "REQUIRED", "timeout": 30, "asScript": true,
                "isRecoveryCodeAllowed": false,
            ]
        ),
    ]

    /// The registration (`asScript: false`) sends the metadata form; the authentication
    /// (`asScript: true`) AM's script form (`WebAuthnScriptTests` has its details).
    @Test func webAuthnRegistrationRendersMetadataAndTheScriptAuthenticationItsScripts() throws {
        let h = try Self.harness(Self.registerThenAuthenticate, providers: [])
        let register = T.begin(h).body
        #expect(T.types(register) == ["MetadataCallback", "HiddenValueCallback"])
        let data = try #require(T.output(register, 0, "data"))
        #expect(data["_type"] == "WebAuthn" && data["_action"] == "webauthn_registration")
        #expect(data["relyingPartyName"] == "Example" && data["relyingPartyId"] == "" && data["_relyingPartyId"] == "")
        #expect(data["timeout"] == "60000" && data["userName"] == "demo" && data["userId"] == "ZGVtbw")
        #expect(data["_authenticatorSelection"]?["userVerification"] == "preferred")
        #expect(data["challenge"]?.stringValue?.isEmpty == false)
        #expect(T.output(register, 1, "id") == "webAuthnOutcome")
        #expect(T.output(register, 1, "value") == "false", "AM's hidden value starts as \"false\"")
        // Not an attestation object: AM's node cannot read it, and nothing is saved.
        #expect(
            h.submit(register, ["IDToken2": "{\"type\":\"webauthn.create\"}::attestation::credential-1"]).status == 401)
        #expect(h.am.users.find(username: "demo")?.devices.webAuthn.isEmpty == true)
        _ = h.am.users.update(username: "demo") { $0.devices.webAuthn = [WebAuthnVerificationTests.someDevice] }
        let authenticate = h.submit(T.begin(h).body, ["IDToken2": ""]).body
        #expect(T.types(authenticate) == ["MetadataCallback", "HiddenValueCallback"], "not answered: sent again")
    }

    @Test func webAuthnAuthenticationRendersItsScript() throws {
        let h = try Self.harness(
            [Self.registerThenAuthenticate[1]].map { ("n", $0.type, $0.connections, $0.config) }, providers: [])
        _ = h.am.users.update(username: "demo") { $0.devices.webAuthn = [WebAuthnVerificationTests.someDevice] }
        let authenticate = T.begin(h).body
        #expect(T.types(authenticate) == ["TextOutputCallback", "TextOutputCallback", "HiddenValueCallback"])
        #expect(T.output(authenticate, 0, "message")?.stringValue?.contains("userVerification: \"required\"") == true)
        #expect(h.submit(authenticate, ["IDToken3": "{\"type\":\"webauthn.get\"}::1,2::3::AA"]).status == 401)
    }

    @Test func webAuthnOutcomesFollowTheClientsString() throws {
        let h = try Self.harness(Self.registerThenAuthenticate, providers: [])
        #expect(
            T.reachedMarker(
                h.submit(T.begin(h).body, ["IDToken2": "ERROR::NotAllowedError:The operation was cancelled"])))
        #expect(h.submit(T.begin(h).body, ["IDToken2": "unsupported"]).status == 401)
        #expect(
            T.types(h.submit(T.begin(h).body, ["IDToken2": ""]).body).first == "MetadataCallback",
            "nothing reported: the step again")
        #expect(h.submit(T.begin(h).body, [:]).status == 401, "the hidden value left as its id: AM cannot read it")
    }

    @Test func webAuthnAuthenticationWithoutADeviceIsNoDevice() throws {
        let h = try Self.harness(
            [Self.registerThenAuthenticate[1]].map {
                ($0.id == "auth" ? "n" : $0.id, $0.type, $0.connections, $0.config)
            }, providers: [])
        #expect(T.reachedMarker(T.begin(h)))
    }

    @Test func webAuthnOutcomesDependOnTheConfig() throws {
        #expect(throws: JourneyImport.Failure.self) {
            try AMExports.load([
                AMExports.tree("T", entry: "n", [("n", "WebAuthnAuthenticationNode", ["recoveryCode": T.success], [:])])
            ])
        }
        #expect(throws: JourneyImport.Failure.self) {
            try AMExports.load([
                AMExports.tree(
                    "T", entry: "n",
                    [
                        (
                            "n", "WebAuthnRegistrationNode", ["success": T.success],
                            ["userVerificationRequirement": "SOMETIMES"]
                        )
                    ])
            ])
        }
        let recovery: Nodes = [
            (
                "n", "WebAuthnAuthenticationNode", ["recoveryCode": "marker", "success": T.success],
                ["isRecoveryCodeAllowed": true]
            )
        ]
        let h = try Self.harness(recovery, providers: [])
        _ = h.am.users.update(username: "demo") { $0.devices.webAuthn = [WebAuthnVerificationTests.someDevice] }
        let step = T.begin(h).body
        #expect(T.types(step) == ["MetadataCallback", "HiddenValueCallback", "ConfirmationCallback"])
        #expect(T.reachedMarker(h.submit(step, ["IDToken3": 0])))
    }
}
