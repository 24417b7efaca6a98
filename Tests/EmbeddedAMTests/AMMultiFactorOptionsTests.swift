import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's MFA Registration Options, Get Authenticator App and Opt-out nodes around the OATH
/// verifier: not registered → the options; register, get the app, skip, or opt out.
struct AMMultiFactorOptionsTests {
    typealias T = AMMoreNodesTests

    static func nodes(options: JSONObject = [:]) -> AMOathTests.NodeList {
        var outcomes: JSONObject = ["registerOutcome": "reg"]
        if options["getApp"] != false { outcomes["getAppOutcome"] = "app" }
        if options["mandatory"] != true {
            outcomes["skipOutcome"] = T.success
            outcomes["optOutOutcome"] = "out"
        }
        return [
            (
                "n", "OathTokenVerifierNode",
                ["successOutcome": T.success, "failureOutcome": "marker", "notRegisteredOutcome": "opt"], [:]
            ),
            ("opt", "MultiFactorRegistrationOptionsNode", outcomes, options),
            ("app", "GetAuthenticatorAppNode", ["outcome": "opt"], ["appleLink": "https://apple.example/app"]),
            ("out", "OptOutMultiFactorAuthenticationNode", ["outcome": T.success], [:]),
            (
                "reg", "OathRegistrationNode", ["successOutcome": "n", "failureOutcome": T.failure],
                ["generateRecoveryCodes": false]
            ),
        ]
    }

    static func skip(_ h: Harness) -> String? {
        h.am.users.find(username: "demo")?.attributes["oath2faEnabled"]?.stringValue
    }

    @Test func theOptionsAndEachOutcome() throws {
        let h = try T.harness(Self.nodes())
        let options = T.begin(h).body
        #expect(T.types(options) == ["TextOutputCallback", "ConfirmationCallback"])
        #expect(T.output(options, 1, "options") == ["Register Device", "Get the App", "Skip this step", "Opt-out"])
        #expect(T.output(options, 0, "message")?.stringValue?.hasPrefix("On this page you can choose") == true)

        let app = h.submit(options, ["IDToken2": 1]).body
        #expect(T.types(app) == ["TextOutputCallback", "ConfirmationCallback"])
        let script = try #require(T.output(app, 0, "message")?.stringValue)
        #expect(script.hasPrefix("document.getElementById(\"callback_0\").innerHTML=\"<center>Get the app from the"))
        #expect(script.contains("href='https://apple.example/app'>Apple App Store</a>"))
        #expect(T.output(app, 1, "options") == ["Continue"])
        let back = h.submit(app, ["IDToken2": 0]).body
        #expect(T.types(back) == ["TextOutputCallback", "ConfirmationCallback"], "back to the options")

        #expect(h.submit(back, ["IDToken2": 2]).body["tokenId"] != nil, "skip")
        #expect(Self.skip(h) == nil, "skipping this time writes nothing")

        #expect(h.submit(T.begin(h).body, ["IDToken2": 3]).body["tokenId"] != nil, "opt out")
        #expect(Self.skip(h) == "1", "skippable")

        let registration = h.submit(T.begin(h).body, ["IDToken2": 0]).body
        #expect(T.types(registration).last == "ConfirmationCallback")
        _ = h.submit(registration, ["IDToken4": 0])
        #expect(Self.skip(h) == "2", "a registered user may no longer skip OATH")
    }

    @Test func mandatoryWithoutTheAppOffersOnlyRegistration() throws {
        let h = try T.harness(Self.nodes(options: ["mandatory": true, "getApp": false]))
        let options = T.begin(h).body
        #expect(T.output(options, 1, "options") == ["Register Device"])
        #expect(h.submit(options, ["IDToken2": 2]).status == 401, "an option it did not offer")
    }

    @Test func withoutTheAppTheIndicesShift() throws {
        let h = try T.harness(Self.nodes(options: ["getApp": false]))
        let options = T.begin(h).body
        #expect(T.output(options, 1, "options") == ["Register Device", "Skip this step", "Opt-out"])
        #expect(h.submit(options, ["IDToken2": 2]).body["tokenId"] != nil)
        #expect(Self.skip(h) == "1")
    }

    @Test func optOutNeedsAMethod() throws {
        let h = try T.harness([("n", "OptOutMultiFactorAuthenticationNode", ["outcome": T.success], [:])])
        #expect(T.begin(h).status == 401, "no mfaMethod in shared state")
    }
}
