import AuthBridgeCore
import EmbeddedAM
import Host
import NativeModules
import TestSupport
import Testing

/// RNPingExternalIdp as the SDK's JS calls it (docs/ping-modules.md), over the example
/// SocialLogin journey (docs/examples/am-exports/social): Select Identity Provider, the Social
/// Provider Handler with a native client, then link by e-mail or provision.
@Suite struct RNPingExternalIdpTests {
    static let journeys: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/docs/examples/am-exports/social/SocialLogin.journey.json"
    }()

    static func app(_ flavor: Flavor) throws -> (ModuleHarness, JSONValue) {
        var configuration = HostConfiguration()
        configuration.flavor = flavor
        configuration.seed = 5
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.journeyFiles = [journeys]
        let app = try ModuleHarness(configuration: configuration)
        let id = try app.call(
            "RNPingJourney.configureJourney", ["serverUrl": "http://localhost:8080/am", "realm": "alpha"])
        return (app, id)
    }

    static let config: JSONValue = ["redirectUri": ""]

    /// One social sign-in as the SDK's JS runs it: select, next, authorize, next.
    static func signIn(
        _ app: ModuleHarness, _ id: JSONValue, provider: String
    ) throws -> (authorized: JSONValue, node: JSONValue) {
        let first = try app.call("RNPingJourney.start", id, "SocialLogin", ["forceAuth": true])
        #expect(first["callbacks"]?.arrayValue?.first?["type"] == "SelectIdpCallback")
        #expect(try app.call("RNPingExternalIdp.selectProviderForJourney", id, .string(provider), [:], config) == .null)
        let idp = try app.call("RNPingJourney.next", id, "", [:])
        #expect(idp["callbacks"]?.arrayValue?.first?["type"] == "IdpCallback")
        let authorized = try app.call("RNPingExternalIdp.authorizeForJourney", id, [:], config)
        return (authorized, try app.call("RNPingJourney.next", id, "", [:]))
    }

    static func user(_ app: ModuleHarness, _ username: String) -> JSONObject? {
        app.perform { world in world.embedded.users.find(username: username)?.attributes }
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func aNewGoogleUserIsProvisionedThenSignsInAsTheSameAccount(_ flavor: Flavor) throws {
        let (app, id) = try Self.app(flavor)
        let (authorized, node) = try Self.signIn(app, id, provider: "google")
        #expect(node["type"] == "SuccessNode")
        // iOS's GoogleHandler gives no additional parameters; Android's result always has a map.
        #expect(authorized["additionalParameters"] == (flavor == .reactNativeIOS ? nil : .object([:])))
        let claims = try JSONParser.parse(
            JWS.parse(authorized["token"]?.stringValue ?? "").payload)
        #expect(claims["iss"] == "https://accounts.google.com")
        #expect(claims["aud"] == "1058936455912-emulated.apps.googleusercontent.com")
        let created = Self.user(app, "sam.social@gmail.com")
        #expect(created?["mail"] == "sam.social@gmail.com")
        #expect(created?["givenName"] == "Sam")
        #expect(created?["aliasList"] == ["google-110169484474386276334"])
        let count = app.perform { world in world.embedded.users.count }
        #expect(try Self.signIn(app, id, provider: "google").node["type"] == "SuccessNode")
        #expect(app.perform { world in world.embedded.users.count } == count)
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func facebookLinksToTheExistingUserWithItsEMail(_ flavor: Flavor) throws {
        let (app, id) = try Self.app(flavor)
        let (authorized, node) = try Self.signIn(app, id, provider: "facebook")
        #expect(node["type"] == "SuccessNode")
        #expect(authorized["token"]?.stringValue?.isEmpty == false)
        #expect(Self.user(app, "demo")?["aliasList"] == ["facebook-10160987654321098"])
        #expect(Self.user(app, "demo@example.com") == nil)
    }

    @Test func appleOnIOSSendsItsResponseAsJSONAndOnAndroidItsFormPostResult() throws {
        let (ios, iosId) = try Self.app(.reactNativeIOS)
        let (authorized, node) = try Self.signIn(ios, iosId, provider: "apple")
        #expect(node["type"] == "SuccessNode")
        let json = try JSONParser.parse(authorized["additionalParameters"]?["acceptsJSON"]?.stringValue ?? "")
        #expect(json["id_token"] == authorized["token"])
        #expect(json["user"]?["name"]?["firstName"] == "Sam")
        #expect(json["code"]?.stringValue?.isEmpty == false)

        let (android, id) = try Self.app(.reactNativeAndroid)
        let (result, signedIn) = try Self.signIn(android, id, provider: "apple")
        #expect(signedIn["type"] == "SuccessNode")
        #expect(result["token"] == "form_post_entry")
        let parameters = result["additionalParameters"]?.objectValue
        #expect(parameters?.keys == ["code", "id_token", "user"])
        #expect(Self.user(android, "sam.social@privaterelay.appleid.com")?["givenName"] == "Sam")
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func callsWithoutTheirCallbackRejectAsTheModuleDoes(_ flavor: Flavor) throws {
        let (app, id) = try Self.app(flavor)
        let start = try app.call("RNPingJourney.start", id, "SocialLogin", [:])
        #expect(start["callbacks"]?.arrayValue?.first?["raw"]?["type"] == "SelectIdPCallback")
        let blank = app.rejection("RNPingExternalIdp.selectProviderForJourney", " ", "google", [:], Self.config)
        #expect(
            RNPingJourneyTests.rejected(blank)!
                == (
                    "EXTERNAL_IDP_CALLBACK_NOT_FOUND", "argument_error",
                    "Journey id must not be empty for setting selected provider."
                ))
        let noProvider = app.rejection("RNPingExternalIdp.selectProviderForJourney", id, "  ", [:], Self.config)
        #expect(RNPingJourneyTests.rejected(noProvider)?.0 == "EXTERNAL_IDP_CONFIG_ERROR")
        let second = app.rejection(
            "RNPingExternalIdp.selectProviderForJourney", id, "google", ["index": 1], Self.config)
        #expect(
            RNPingJourneyTests.rejected(second)?.2
                == "No active SelectIdp callback found for journey \(id.stringValue!) at index 1.")
        let noIdP = app.rejection("RNPingExternalIdp.authorizeForJourney", id, [:], Self.config)
        #expect(RNPingJourneyTests.rejected(noIdP)?.1 == "state_error")
        let davinci = app.rejection("RNPingExternalIdp.authorizeForDaVinci", "dv", [:], Self.config)
        #expect(RNPingJourneyTests.rejected(davinci)?.0 == "EXTERNAL_IDP_CALLBACK_NOT_FOUND")
        guard case .invalidParams? = app.rejection("RNPingExternalIdp.authorizeForJourney", id, [:]) else {
            Issue.record("two arguments should be invalid params")
            return
        }
    }

    /// `next` cannot set what only the package answers: both SDKs name the package
    /// (`integrationCallbackRequirements`), and the node stays as it was.
    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func nextWithAnIdPValueAsksForTheExternalIdpPackage(_ flavor: Flavor) throws {
        let (app, id) = try Self.app(flavor)
        _ = try app.call("RNPingJourney.start", id, "SocialLogin", [:])
        let refused = app.rejection(
            "RNPingJourney.next", id, "", ["callbacks": [["type": "SelectIdPCallback", "value": "google"]]])
        #expect(
            RNPingJourneyTests.rejected(refused)!
                == (
                    "JOURNEY_MISSING_INTEGRATION_ERROR", "state_error",
                    "Callback type SelectIdPCallback requires additional native integration: @ping-identity/rn-external-idp"
                ))
        #expect(try app.call("RNPingExternalIdp.selectProviderForJourney", id, "google", [:], Self.config) == .null)
    }

    @Test func aProviderNotOfferedShowsTheSelectionAgainAndLocalAuthenticationStillWorks() throws {
        let (app, id) = try Self.app(.reactNativeIOS)
        _ = try app.call("RNPingJourney.start", id, "SocialLogin", [:])
        _ = try app.call("RNPingExternalIdp.selectProviderForJourney", id, "twitter", [:], Self.config)
        let again = try app.call("RNPingJourney.next", id, "", [:])
        #expect(again["callbacks"]?.arrayValue?.first?["type"] == "SelectIdpCallback")
        _ = try app.call("RNPingExternalIdp.selectProviderForJourney", id, "localAuthentication", [:], Self.config)
        let name = try app.call("RNPingJourney.next", id, "", [:])
        #expect(name["callbacks"]?.arrayValue?.first?["type"] == "NameCallback")
    }
}
