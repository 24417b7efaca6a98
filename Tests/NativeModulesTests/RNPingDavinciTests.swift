import AuthBridgeCore
import NativeModules
import TestSupport
import Testing

/// RNPingDavinci as the successor SDK's JS calls it (docs/ping-modules.md): request in, node or
/// typed rejection out, on iOS and Android, against the embedded PingOne environment's built-in flows.
@Suite struct RNPingDavinciTests {
    static let config: JSONValue = [
        "discoveryEndpoint":
            "http://localhost:8080/8e1a4b2c-7d3f-4e6a-9b5c-1f2d3e4a5b6c/as/.well-known/openid-configuration",
        "clientId": "ReactNativeOAuthClient", "redirectUri": "https://com.example.reactnative.todo/callback",
        "scopes": ["openid", "profile"],
    ]

    static func configured(_ flavor: Flavor, _ config: JSONValue = config) throws -> (ModuleHarness, JSONValue) {
        let app = ModuleHarness(flavor: flavor)
        return (app, try app.call("RNPingDavinci.configureDaVinci", config))
    }

    static func rejected(_ error: BridgeError?) -> (String, String, String)? {
        RNPingJourneyTests.rejected(error)
    }

    static func signOn(_ username: String = "demo", _ password: String = "Ch4ng3it!") -> JSONValue {
        [
            "collectors": [
                ["key": "username", "value": .string(username)], ["key": "password", "value": .string(password)],
                ["key": "SIGNON", "value": "SIGNON"],
            ]
        ]
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func aWrongPasswordIsAnErrorNodeAndANewStartSignsOn(flavor: Flavor) throws {
        let (app, id) = try Self.configured(flavor)
        let form = try app.call("RNPingDavinci.start", id)
        #expect(form["type"] == "ContinueNode" && form["name"] == "Username/Password Form")
        let keys = form["collectors"]?.arrayValue?.compactMap { $0["key"]?.stringValue }
        let password = form["collectors"]?.arrayValue?.first { $0["key"] == "password" }
        #expect(
            password?["value"] == "" && password?["clearPassword"] == true && password?["raw"]?["type"] == "PASSWORD")
        // Flow buttons carry `inputType: ACTION`, which both platforms register (iOS also registers FLOW_BUTTON).
        #expect(keys == ["username", "password", "SIGNON", "TROUBLE", "REGISTER"] && form["unsupportedFields"] == nil)
        let error = try app.call("RNPingDavinci.next", id, Self.signOn("demo", "wrong"))
        #expect(error["type"] == "ErrorNode" && error["input"]?["capabilityName"] == "checkPassword")
        #expect(error["status"] == (flavor == .reactNativeIOS ? .int(400) : nil))
        // The ErrorNode cleared the form, as the bridges' state stores do.
        #expect(
            Self.rejected(app.rejection("RNPingDavinci.next", id, Self.signOn()))?.0 == "DAVINCI_STATE_ERROR")
        #expect(try app.call("RNPingDavinci.start", id)["type"] == "ContinueNode")
        let success = try app.call("RNPingDavinci.next", id, Self.signOn())
        #expect(success["type"] == "SuccessNode" && success["session"]?["value"]?.stringValue?.isEmpty == false)
        let session = try app.call("RNPingDavinci.getSession", id)
        #expect(session["accessToken"]?.stringValue != nil && (session["expiresIn"]?.intValue ?? 0) > 0)
        #expect(session["userInfo"]?["preferred_username"] == "demo")
        #expect(try app.call("RNPingDavinci.userinfo", id)["preferred_username"] == "demo")
        #expect(try app.call("RNPingDavinci.logout", id) == .null)
        #expect(try app.call("RNPingDavinci.getSession", id) == .null)
    }

    @Test func configRejectionsNameTheMissingParameterThenTheStorage() throws {
        let app = ModuleHarness(flavor: .reactNativeIOS)
        var config = Self.config
        if case .object(var object) = config {
            object["clientId"] = "  "
            config = .object(object)
        }
        #expect(
            Self.rejected(app.rejection("RNPingDavinci.configureDaVinci", config))!
                == ("DAVINCI_CONFIG_ERROR", "argument_error", "Missing required parameter: clientId"))
        var timed = Self.config
        timed = .object(timed.objectValue!.merging(["refreshThreshold": "soon", "storageId": "nope"]))
        #expect(
            Self.rejected(app.rejection("RNPingDavinci.configureDaVinci", timed))!
                == (
                    "DAVINCI_CONFIG_ERROR", "argument_error",
                    "Invalid value for 'refreshThreshold': expected a number, got \"soon\""
                ))
        let android = ModuleHarness(flavor: .reactNativeAndroid)
        #expect(
            Self.rejected(android.rejection("RNPingDavinci.configureDaVinci", timed))!.0 == "DAVINCI_CONFIG_ERROR")
        let stored = Self.config.objectValue!.merging(["storageId": "nope"])
        #expect(
            Self.rejected(android.rejection("RNPingDavinci.configureDaVinci", .object(stored)))!
                == ("DAVINCI_INIT_ERROR", "argument_error", "No OIDC storage config registered for id=nope"))
    }

    @Test func valueErrorsPerPlatform() throws {
        for (flavor, code, text) in [
            (Flavor.reactNativeIOS, "DAVINCI_NEXT_ERROR", "Collector key='username' expects a string-compatible value"),
            (
                .reactNativeAndroid, "DAVINCI_COLLECTOR_APPLY_ERROR",
                "username expects a string-compatible value, got: ArrayList"
            ),
        ] {
            let (app, id) = try Self.configured(flavor)
            _ = try app.call("RNPingDavinci.start", id)
            let bad: JSONValue = [
                "collectors": [["key": "password", "value": 42], ["key": "username", "value": ["a"]]]
            ]
            #expect(Self.rejected(app.rejection("RNPingDavinci.next", id, bad))! == (code, "argument_error", text))
            #expect(
                Self.rejected(app.rejection("RNPingDavinci.next", id, ["collectors": [["value": "x"]]]))!
                    == (code, "argument_error", "Missing 'key' in collector entry at index 0"))
            // The number set before the failure stayed set: the form still submits it.
            let error = try app.call(
                "RNPingDavinci.next", id,
                ["collectors": [["key": "username", "value": "demo"], ["key": "SIGNON", "value": "SIGNON"]]])
            #expect(error["type"] == "ErrorNode")
        }
    }

    /// The form's label has no key: Android looks "" up and finds the label (iOS refuses an empty key).
    @Test func aLabelTakesNoValueAndUnknownIdsAreStateErrors() throws {
        let app = ModuleHarness(flavor: .reactNativeAndroid)
        let reset = Self.config.objectValue!.merging(["acrValues": "password-reset"])
        let id = try app.call("RNPingDavinci.configureDaVinci", .object(reset))
        let form = try app.call("RNPingDavinci.start", id)
        let label = try #require(form["collectors"]?.arrayValue?.first { $0["type"] == "LABEL" })
        let key = label["key"]?.stringValue ?? ""
        #expect(
            Self.rejected(
                app.rejection("RNPingDavinci.next", id, ["collectors": [["key": .string(key), "value": "x"]]]))!
                == (
                    "DAVINCI_UNSUPPORTED_COLLECTOR_ERROR", "argument_error",
                    "Collector key='\(key)' type=LabelCollector is not supported by the bridge"
                ))
        #expect(
            Self.rejected(app.rejection("RNPingDavinci.getSession", "nope"))!
                == ("DAVINCI_STATE_ERROR", "state_error", "DaVinci instance not found for id=nope"))
        #expect(
            Self.rejected(app.rejection("RNPingDavinci.pollDaVinci", id, ["key": "p"]))!
                == (
                    "DAVINCI_POLL_ERROR", "state_error",
                    "No active PollingCollector found for davinci id=\(id.stringValue!) with key=p"
                ))
        #expect(try app.call("RNPingDavinci.dispose", "nope") == .null)
    }
}

extension JSONObject {
    fileprivate func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        for member in other.members { result[member.key] = member.value }
        return result
    }
}
