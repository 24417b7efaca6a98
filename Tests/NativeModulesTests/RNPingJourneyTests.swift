import AuthBridgeCore
import NativeModules
import TestSupport
import Testing

/// RNPingJourney as the successor SDK's JS calls it (docs/ping-modules.md): request in, node or
/// typed rejection out, on iOS and Android.
@Suite struct RNPingJourneyTests {
    static let oidc: JSONValue = [
        "serverUrl": "http://localhost:8080/am", "realm": "alpha", "clientId": "ReactNativeOAuthClient",
        "discoveryEndpoint": "http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration",
        "redirectUri": "https://com.example.reactnative.todo/callback", "scopes": ["openid", "profile", "email"],
    ]

    static func configured(
        _ flavor: Flavor = .reactNativeIOS, _ config: JSONValue = oidc
    ) throws -> (ModuleHarness, JSONValue) {
        let app = ModuleHarness(flavor: flavor)
        return (app, try app.call("RNPingJourney.configureJourney", config))
    }

    /// (code, userInfo.type, message) of a typed rejection.
    static func rejected(_ error: BridgeError?) -> (String, String, String)? {
        guard case .typedRejection(let code, let message, let userInfo)? = error else { return nil }
        #expect(userInfo["error"]?.stringValue == code)
        #expect(userInfo["message"]?.stringValue == message)
        return (code, userInfo["type"]?.stringValue ?? "", message)
    }

    static let demo: JSONValue = [
        "callbacks": [["type": "NameCallback", "value": "demo"], ["type": "PasswordCallback", "value": "Ch4ng3it!"]]
    ]

    @Test func idsAreUUIDsUpperCaseOnIOSLowerCaseOnAndroid() throws {
        let ios = try Self.configured(.reactNativeIOS).1.stringValue!
        let android = try Self.configured(.reactNativeAndroid).1.stringValue!
        #expect(ios.count == 36 && ios == ios.uppercased())
        #expect(android.count == 36 && android == android.lowercased())
    }

    @Test func aConfigWithoutServerUrlOrHalfAnOidcConfigIsRejected() {
        let app = ModuleHarness()
        #expect(
            Self.rejected(app.rejection("RNPingJourney.configureJourney", ["realm": "alpha"]))!
                == ("JOURNEY_CONFIG_ERROR", "argument_error", "Missing required parameter: serverUrl"))
        let half = app.rejection(
            "RNPingJourney.configureJourney", ["serverUrl": "http://am", "clientId": "ReactNativeOAuthClient"])
        #expect(
            Self.rejected(half)?.2
                == "clientId, redirectUri, and either discoveryEndpoint or openId must all be provided when OIDC is configured"
        )
        #expect(
            app.rejection("RNPingJourney.configureJourney")
                == .invalidParams(reason: "configureJourney takes 1 argument (config), got 0", param: nil))
        #expect(
            app.rejection("RNPingJourney.start", "j1")
                == .invalidParams(
                    reason: "start takes 2 to 3 arguments (journeyId, journeyName, options), got 1", param: nil))
        #expect(
            app.rejection("RNPingJourney.start", "j1", 7)
                == .invalidParams(
                    JSONReadError(path: JSONPath("journeyName"), expected: .string, found: .kind(.integer)), param: "1")
        )
        #expect(
            app.rejection("RNPingJourney.configureJourney", "x")
                == .invalidParams(
                    JSONReadError(path: JSONPath("config"), expected: .object, found: .kind(.string)), param: "0"))
    }

    @Test func startResolvesAContinueNodeWithMappedCallbacks() throws {
        let (app, id) = try Self.configured()
        let node = try app.call("RNPingJourney.start", id, "Login", ["forceAuth": false, "noSession": false])
        #expect(node["type"] == "ContinueNode")
        #expect(node["header"] == "Sign In" && node["description"] == "" && node["stage"] == "UsernamePassword")
        #expect(node["submitButtonText"] == "" && node["pageFooter"] == "")
        #expect(node["input"]?["authId"]?.stringValue != nil)
        let name = node["callbacks"]?.arrayValue?[0]
        #expect(name?["type"] == "NameCallback" && name?["prompt"] == "User Name" && name?["value"] == "")
        #expect(name?["raw"]?["input"]?.arrayValue?.first?["name"] == "IDToken1")
    }

    @Test func startChecksTheNameFirstOnIOSAndTheIdFirstOnAndroid() throws {
        let ios = ModuleHarness(flavor: .reactNativeIOS)
        #expect(Self.rejected(ios.rejection("RNPingJourney.start", "nope", "  "))?.0 == "JOURNEY_START_ERROR")
        let android = ModuleHarness(flavor: .reactNativeAndroid)
        #expect(
            Self.rejected(android.rejection("RNPingJourney.start", "nope", "  "))!
                == ("JOURNEY_STATE_ERROR", "state_error", "Journey instance not found for id=nope"))
    }

    @Test func inputAppliesByTypeAndPerTypeIndexNotByPosition() throws {
        let (app, id) = try Self.configured()
        _ = try app.call("RNPingJourney.start", id, "Login")
        let reversed: JSONValue = [
            "callbacks": [
                ["type": "PasswordCallback", "value": "Ch4ng3it!"],
                ["type": "NameCallback", "index": 0, "value": "demo"],
            ]
        ]
        let node = try app.call("RNPingJourney.next", id, "", reversed)
        #expect(node["type"] == "SuccessNode")
        #expect(node["input"]?["tokenId"]?.stringValue != nil && node["input"]?["realm"] == "/alpha")
    }

    @Test func aStartWithTheStoredSessionAnswersItUnlessForcedOrAnotherJourney() throws {
        for flavor in [Flavor.reactNativeIOS, .reactNativeAndroid] {
            let (app, id) = try Self.configured(flavor)
            _ = try app.call("RNPingJourney.start", id, "Login")
            let sso = try app.call("RNPingJourney.next", id, "", Self.demo)["input"]?["tokenId"]
            let again = try app.call("RNPingJourney.start", id, "Login", ["forceAuth": false, "noSession": false])
            #expect(again["type"] == "SuccessNode" && again["input"]?["tokenId"] == sso, "\(flavor)")
            #expect(try app.call("RNPingJourney.start", id, "Login", ["forceAuth": true])["type"] == "ContinueNode")
            #expect(
                try app.call("RNPingJourney.start", id, "PlatformLogin")["type"] == "ContinueNode", "session upgrade")
        }
    }

    @Test func aWrongPasswordResolvesAnErrorNodeWithStatusOnIOSOnly() throws {
        for flavor in [Flavor.reactNativeIOS, .reactNativeAndroid] {
            let (app, id) = try Self.configured(flavor)
            _ = try app.call("RNPingJourney.start", id, "Login")
            let wrong: JSONValue = [
                "callbacks": [
                    ["type": "NameCallback", "value": "demo"], ["type": "PasswordCallback", "value": "nope"],
                ]
            ]
            let node = try app.call("RNPingJourney.next", id, "", wrong)
            #expect(node["type"] == "ErrorNode" && node["message"] == "Login failure")
            #expect(node["input"]?["reason"] == "Unauthorized")
            #expect(node["status"] == (flavor == .reactNativeIOS ? 401 : nil))
            // The journey ended: there is no node to continue.
            #expect(
                Self.rejected(app.rejection("RNPingJourney.next", id, "", Self.demo))?.2
                    == "No active ContinueNode found for journey id=\(id.stringValue!)")
        }
    }

    @Test func badInputRejectsWithEachPlatformsCodeAndKeepsTheNode() throws {
        for (flavor, code) in [
            (Flavor.reactNativeIOS, "JOURNEY_NEXT_ERROR"), (.reactNativeAndroid, "JOURNEY_CALLBACK_APPLY_ERROR"),
        ] {
            let (app, id) = try Self.configured(flavor)
            _ = try app.call("RNPingJourney.start", id, "Login")
            let missing: JSONValue = [
                "callbacks": [["type": "NameCallback", "value": "demo"], ["type": "ChoiceCallback", "value": 1]]
            ]
            #expect(
                Self.rejected(app.rejection("RNPingJourney.next", id, "", missing))! == (
                    code, "argument_error", "No active callback found for type ChoiceCallback"
                ))
            let outOfRange: JSONValue = ["callbacks": [["type": "NameCallback", "index": 1, "value": "demo"]]]
            #expect(
                Self.rejected(app.rejection("RNPingJourney.next", id, "", outOfRange))?.2
                    == "No active callback found for type NameCallback at index 1")
            let untyped: JSONValue = ["callbacks": [["value": "demo"]]]
            #expect(
                Self.rejected(app.rejection("RNPingJourney.next", id, "", untyped))?.2
                    == "Callback type is required at index 0")
            let notString: JSONValue = ["callbacks": [["type": "NameCallback", "value": ["x": 1]]]]
            #expect(
                Self.rejected(app.rejection("RNPingJourney.next", id, "", notString))?.2
                    == "NameCallback expects a string-compatible value")
            // The name set before the failure stays: only the password is sent now.
            let password: JSONValue = ["callbacks": [["type": "PasswordCallback", "value": "Ch4ng3it!"]]]
            #expect(try app.call("RNPingJourney.next", id, "", password)["type"] == "SuccessNode")
        }
    }

    @Test func iosParsesTheInputBeforeLookingForTheNodeAndroidAfter() throws {
        let bad: JSONValue = ["callbacks": [7]]
        let ios = ModuleHarness(flavor: .reactNativeIOS)
        #expect(
            Self.rejected(ios.rejection("RNPingJourney.next", "nope", "", bad))?.2
                == "Invalid callback payload at index 0")
        let android = ModuleHarness(flavor: .reactNativeAndroid)
        #expect(Self.rejected(android.rejection("RNPingJourney.next", "nope", "", bad))?.0 == "JOURNEY_STATE_ERROR")
    }

    @Test func aSessionGivesTokensUserInfoAndAnSSOTokenUntilLogout() throws {
        let (app, id) = try Self.configured()
        #expect(try app.call("RNPingJourney.getSession", id) == .null)
        _ = try app.call("RNPingJourney.start", id, "Login")
        _ = try app.call("RNPingJourney.next", id, "", Self.demo)
        let session = try app.call("RNPingJourney.getSession", id)
        #expect(session["accessToken"]?.stringValue != nil && session["expiresIn"] == 3599)
        #expect(session["userInfo"]?["preferred_username"] == "demo")
        let refreshed = try app.call("RNPingJourney.refresh", id)
        #expect(refreshed["accessToken"] != session["accessToken"])
        #expect(try app.call("RNPingJourney.userinfo", id)["email"] == "demo@example.com")
        #expect(try app.call("RNPingJourney.ssoToken", id)["realm"] == "/alpha")
        let sso = try app.call("RNPingJourney.ssoToken", id)["value"]!.stringValue!
        #expect(try app.call("RNPingJourney.logout", id) == true)
        #expect(app.perform { $0.embedded.sessions.find(sso) } == nil)
        #expect(try app.call("RNPingJourney.getSession", id) == .null)
        #expect(try app.call("RNPingJourney.ssoToken", id) == .null)
    }

    @Test func withoutOidcThereIsNoUserButStillASession() throws {
        let (app, id) = try Self.configured(.reactNativeIOS, ["serverUrl": "http://localhost:8080/am"])
        _ = try app.call("RNPingJourney.start", id, "Login")
        _ = try app.call("RNPingJourney.next", id, "", Self.demo)
        #expect(try app.call("RNPingJourney.getSession", id) == .null)
        #expect(try app.call("RNPingJourney.ssoToken", id)["value"]?.stringValue != nil)
    }

    @Test func severalJourneysRunAtOnceAndDisposeForgetsOne() throws {
        let (app, first) = try Self.configured()
        let second = try app.call("RNPingJourney.configureJourney", Self.oidc)
        _ = try app.call("RNPingJourney.start", first, "Login")
        #expect(try app.call("RNPingJourney.start", second, "Registration")["type"] == "ContinueNode")
        #expect(try app.call("RNPingJourney.next", first, "", Self.demo)["type"] == "SuccessNode")
        #expect(try app.call("RNPingJourney.dispose", second) == .null)
        #expect(try app.call("RNPingJourney.dispose", "never-configured") == .null)
        #expect(
            Self.rejected(app.rejection("RNPingJourney.getSession", second))?.2
                == "Journey instance not found for id=\(second.stringValue!)")
    }

    @Test func resumeNeedsAURIAndWithoutSuspendedIdFailsOnIOS() throws {
        let (app, id) = try Self.configured()
        #expect(
            Self.rejected(app.rejection("RNPingJourney.resume", id, ""))! == (
                "JOURNEY_RESUME_ERROR", "argument_error", "Resume URI must not be empty"
            ))
        let node = try app.call("RNPingJourney.resume", id, "myapp://resume?other=1")
        #expect(node["type"] == "FailureNode" && node["message"] == node["cause"])
    }
}
