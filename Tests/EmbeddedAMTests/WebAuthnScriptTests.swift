import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's WebAuthn nodes with `asScript: true` (`AbstractWebAuthnNode.getCallbacksForWebAuthnInteraction`
/// in ForgeRock/am-external, releases/8.0.2): two script TextOutputCallbacks (message type 4) and
/// the hidden value, not the MetadataCallback form. A browser runs the first script; a native
/// SDK cannot answer the step, and one sent back as it came fails the journey.
struct WebAuthnScriptTests {
    typealias T = AMMoreNodesTests

    static func harness(_ type: String, _ config: JSONObject) throws -> Harness {
        var outcomes: JSONObject = [
            "success": T.success, "failure": T.failure, "error": "marker", "unsupported": T.failure,
        ]
        if type == "WebAuthnAuthenticationNode" { outcomes["noDevice"] = T.failure }
        if config["isRecoveryCodeAllowed"] == true { outcomes["recoveryCode"] = "marker" }
        var config = config
        config["asScript"] = true
        let h = try T.harness([("n", type, outcomes, config)])
        _ = h.am.users.update(username: "demo") { $0.devices.webAuthn = [WebAuthnVerificationTests.someDevice] }
        return h
    }

    static func message(_ step: JSONValue, _ index: Int) -> String {
        T.output(step, index, "message")?.stringValue ?? ""
    }

    @Test func registrationSendsTheScriptTheSpinnerAndTheHiddenValue() throws {
        let step = T.begin(
            try Self.harness("WebAuthnRegistrationNode", ["relyingPartyName": "Example", "timeout": 30])
        ).body
        #expect(
            step["callbacks"] == [
                [
                    "type": "TextOutputCallback",
                    "output": [
                        ["name": "message", "value": .string(Self.message(step, 0))],
                        ["name": "messageType", "value": "4"],
                    ],
                ],
                [
                    "type": "TextOutputCallback",
                    "output": [
                        ["name": "message", "value": .string(Self.message(step, 1))],
                        ["name": "messageType", "value": "4"],
                    ],
                ],
                [
                    "type": "HiddenValueCallback",
                    "output": [["name": "value", "value": "false"], ["name": "id", "value": "webAuthnOutcome"]],
                    "input": [["name": "IDToken3", "value": "webAuthnOutcome"]],
                ],
            ], "a lone node's step: no _id")
        let script = Self.message(step, 0)
        // What the JS SDK's FRWebAuthn reads out of AM's registration script.
        for piece in [
            "navigator.credentials.create", "getElementById(\"webAuthnOutcome\")", "challenge: new Int8Array([",
            "rp: { name: \"Example\" }",
            "id: Uint8Array.from(\"ZGVtbw\"", "name: \"demo\"", "displayName: \"demo\"",
            "pubKeyCredParams: [ { \"type\": \"public-key\", \"alg\": -7 }, { \"type\": \"public-key\", \"alg\": -257 } ]",
            "attestation: \"none\"", "timeout: 30000", "{\"userVerification\":\"preferred\"}",
        ] {
            #expect(script.contains(piece), "the registration script has \(piece)")
        }
        #expect(Self.message(step, 1).contains("Waiting for local device..."))
        #expect(!Self.message(step, 1).contains("webAuthnOutcome"), "only the first script is the WebAuthn one")
    }

    @Test func authenticationNamesTheRelyingPartyOnlyWhenConfigured() throws {
        let plain = Self.message(T.begin(try Self.harness("WebAuthnAuthenticationNode", [:])).body, 0)
        #expect(
            plain.contains("navigator.credentials.get") && plain.contains("userVerification: \"preferred\"")
                && plain.contains("timeout: 60000"))
        #expect(!plain.contains("rpId") && !plain.contains("pubKeyCredParams"))
        // The user's device, as AM's script lists it, last (the JS SDK's parser reads to the last `]`).
        #expect(
            plain.contains(
                "extensions: {},\n        allowCredentials: [{ \"type\": \"public-key\", \"id\": new Int8Array([0]).buffer }]\n    };"
            ))
        let lastBracket = try #require(plain.lastIndex(of: "]"))
        #expect(plain[..<lastBracket].hasSuffix(".buffer }"), "no `]` after the list")
        let named = Self.message(
            T.begin(try Self.harness("WebAuthnAuthenticationNode", ["relyingPartyDomain": "example.com"])).body, 0)
        #expect(named.contains("rpId: \"example.com\","))
    }

    /// The challenge in AM's format, Java's `Arrays.toString` of the signed bytes.
    @Test func theChallengeIsSignedBytes() {
        #expect(Callback.signedBytes([1, 255, 128, 127]) == "[1, -1, -128, 127]")
    }

    /// What a browser's script writes (AM's `WebAuthnOutcomeDeserializer` reads JSON first), and
    /// what a native app that cannot run the script sends: the step as it came.
    @Test func theHiddenValueIsReadAsAMReadsIt() throws {
        let h = try Self.harness("WebAuthnAuthenticationNode", [:])
        // A result for a credential the user does not have: failure.
        #expect(
            h.submit(
                T.begin(h).body,
                ["IDToken3": "{\"legacyData\":\"{}::1,2::3,4::id::\",\"authenticatorAttachment\":\"platform\"}"]
            ).status == 401)
        #expect(
            T.reachedMarker(h.submit(T.begin(h).body, ["IDToken3": "{\"error\":\"NotAllowedError: cancelled\"}"])),
            "error")
        #expect(h.submit(T.begin(h).body, ["IDToken3": "unsupported"]).status == 401)
        #expect(h.submit(T.begin(h).body, [:]).status == 401, "sent back as it came: failure, as on a device")
    }

    @Test func theRecoveryCodeButtonFollowsTheHiddenValue() throws {
        let h = try Self.harness("WebAuthnAuthenticationNode", ["isRecoveryCodeAllowed": true])
        let step = T.begin(h).body
        #expect(
            T.types(step) == [
                "TextOutputCallback", "TextOutputCallback", "HiddenValueCallback", "ConfirmationCallback",
            ])
        #expect(T.reachedMarker(h.submit(step, ["IDToken4": 0])))
    }
}
