import AuthBridgeCore
import EmbeddedAM
import TestSupport
import Testing

@testable import NativeModules
@testable import NativeSDK

@Suite struct ReactNativeAndroidContract {
    let bridge = ModuleHarness(flavor: .reactNativeAndroid, seed: 3)

    @Test func stepIsAGsonStringWithAndroidKeys() throws {
        #expect(try bridge.call("start") == "SDK Initialized")
        let step = try JSONParser.parse(try #require(try bridge.call("login").stringValue))
        #expect(
            step.objectValue?.keys == [
                "frCallbacks", "authId", "authServiceId", "stage", "pageHeader", "pageDescription", "callbacks",
            ])
        #expect(step["authServiceId"] == "")
        #expect(step["pageDescription"] == "", "Kotlin writes absent texts as empty strings")
        let fr = try #require(step["frCallbacks"]?.arrayValue?.first)
        #expect(fr["prompt"] == "User Name")
        #expect(fr["inputNames"] == [])
        #expect(try JSONParser.parse(try #require(fr["response"]?.stringValue))["type"] == "NameCallback")
    }

    @Test func successIsAnObjectWithTheGsonToken() throws {
        _ = try bridge.call("start")
        _ = try bridge.call("login")
        let success = try bridge.call("next", .string(ModuleHarness.demo))
        #expect(success.objectValue?.keys == ["type", "sessionToken"])
        let token = try JSONParser.parse(try #require(success["sessionToken"]?.stringValue))
        #expect(token["scope"] == ["openid", "profile", "email"])
        #expect(token["sessionToken"]?["realm"] == "/alpha")
        #expect(token["isPersisted"] == false)
        #expect(token["expiration"] == "Jan 1, 2026 12:59:59 AM")
    }

    @Test func aWrongPasswordRejectsWithAMsBodyAsText() throws {
        _ = try bridge.call("start")
        _ = try bridge.call("login")
        let payload = ModuleHarness.demo.replacingOccurrences(of: "Ch4ng3it!", with: "nope")
        #expect(
            bridge.rejection("next", .string(payload))
                == .rejection(
                    code: "error", message: #"{"code":401,"reason":"Unauthorized","message":"Login failure"}"#,
                    detail: nil))
    }

    @Test func valuesNeedTheSameTypeAtTheSamePosition() throws {
        _ = try bridge.call("start")
        _ = try bridge.call("login")
        // Types swapped: neither value is applied, so AM sees empty inputs and refuses.
        let swapped =
            #"{"callbacks":[{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"Ch4ng3it!"}]},{"type":"NameCallback","input":[{"name":"IDToken1","value":"demo"}]}]}"#
        #expect(bridge.rejection("next", .string(swapped)) != nil)
    }

    @Test func noUserMessages() {
        #expect(
            bridge.rejection("getUserInfo") == .rejection(code: "error", message: Dialect.androidNoUser, detail: nil))
        #expect(
            bridge.rejection("next", .string(ModuleHarness.demo))
                == .rejection(code: "error", message: "current node or callbacks are null", detail: nil))
    }

    @Test func userInfoLongsAndNullsBecomeStrings() {
        #expect(
            ReactNativeResults.writableMap(["a": 5_000_000_000, "b": .null, "c": 7, "d": ["e": .null]])
                == ["a": "5000000000", "b": "null", "c": 7, "d": ["e": "null"]])
    }

    @Test func javaDateFormat() {
        #expect(AccessToken.javaMediumDateTime(1_736_071_200) == "Jan 5, 2025 10:00:00 AM")
        #expect(AccessToken.javaMediumDateTime(1_767_225_600 + 13 * 3600 + 65) == "Jan 1, 2026 1:01:05 PM")
        #expect(AccessToken.javaMediumDateTime(951_782_400) == "Feb 29, 2000 12:00:00 AM")
    }
}

@Suite struct AndroidCallbackValues {
    static func node(_ types: [String]) -> Node {
        let callbacks: [JSONValue] = types.enumerated().map { index, type in
            ["type": .string(type), "input": [["name": .string("IDToken\(index + 1)"), "value": ""]]]
        }
        return Node(step: ["authId": "x", "callbacks": .array(callbacks)], authServiceId: "")!
    }

    static func value(_ node: Node, _ index: Int) -> JSONValue? {
        node.callbacks[index]["input"]?.arrayValue?.first?["value"]
    }

    static func payload(_ callbacks: [(String, JSONValue)]) throws -> StepPayload {
        let list = callbacks.map { type, value -> String in
            #"{"type":"\#(type)","input":[{"name":"x","value":\#(JSONWriter().string(value))}]}"#
        }
        return try StepPayload.decode(#"{"callbacks":[\#(list.joined(separator: ","))]}"#)
    }

    static var collector: DeviceProfileCollector { DeviceProfileCollector(platform: .android) { "device-1" } }

    @Test func nameGoesToTheFirstNameCallback() throws {
        var node = Self.node(["NameCallback", "NameCallback"])
        try CallbackValues.applyAndroid(
            try Self.payload([("NameCallback", "a"), ("NameCallback", "b")]), to: &node, variant: .kotlin,
            collector: Self.collector)
        #expect(Self.value(node, 0) == "b")
        #expect(Self.value(node, 1) == "")
    }

    @Test func choiceIsNeverSetOnKotlinAndRejectedOnJava() throws {
        var node = Self.node(["ChoiceCallback"])
        try CallbackValues.applyAndroid(
            try Self.payload([("ChoiceCallback", 1)]), to: &node, variant: .kotlin, collector: Self.collector)
        #expect(Self.value(node, 0) == "")
        #expect(throws: BridgeError.self) {
            try CallbackValues.applyAndroid(
                try Self.payload([("ChoiceCallback", 1)]), to: &node, variant: .java, collector: Self.collector)
        }
    }

    @Test func booleansOnlyForBooleanCallbacks() throws {
        var node = Self.node(["TermsAndConditionsCallback", "StringAttributeInputCallback"])
        try CallbackValues.applyAndroid(
            try Self.payload([("TermsAndConditionsCallback", true), ("StringAttributeInputCallback", 5)]), to: &node,
            variant: .kotlin, collector: Self.collector)
        #expect(Self.value(node, 0) == true)
        #expect(Self.value(node, 1) == "")
    }
}

@Suite struct FlutterContract {
    @Test func everyResultIsAString() throws {
        for flavor in [Flavor.flutterIOS, .flutterAndroid] {
            let bridge = ModuleHarness(flavor: flavor, seed: 3)
            #expect(try bridge.call("frAuthStart").stringValue != nil)
            _ = try bridge.call("login")
            let success = try JSONParser.parse(
                try #require(try bridge.call("next", .string(ModuleHarness.demo)).stringValue))
            #expect(success["type"] == "LoginSuccess")
            #expect(try bridge.call("getUserInfo").stringValue?.contains(#""name":"Demo User""#) == true)
            #expect(try bridge.call("logout") == "User logged out")
            #expect(!bridge.host.view.wireNames.contains("getAccessToken"))
        }
    }

    @Test func startLogsOutWhoeverWasLoggedIn() throws {
        let bridge = ModuleHarness(flavor: .flutterIOS, seed: 3)
        _ = try bridge.call("frAuthStart")
        _ = try bridge.call("login")
        _ = try bridge.call("next", .string(ModuleHarness.demo))
        _ = try bridge.call("frAuthStart")
        #expect(!bridge.perform { $0.sdk.hasUser })
    }

    @Test func failuresAsFlutterErrors() throws {
        let ios = ModuleHarness(flavor: .flutterIOS, seed: 3)
        _ = try ios.call("frAuthStart")
        _ = try ios.call("login")
        let wrong = ModuleHarness.demo.replacingOccurrences(of: "Ch4ng3it!", with: "nope")
        #expect(
            ios.rejection("next", .string(wrong))
                == .rejection(code: "LoginFailure", message: "Login failure", detail: nil))
        #expect(
            ios.rejection("next", 5) == .rejection(code: "500", message: "Arguments not parsed correctly", detail: nil))
        #expect(
            ios.rejection("callEndpoint", ["u", "GET"])
                == .rejection(code: "500", message: "Arguments not parsed correctly", detail: nil))
    }
}

/// iOS flavors pass the iOS SDK's texts on, not AM's (issue 15).
@Suite struct IOSSDKErrorTexts {
    @Test func flutterIOSRejectsATimedOutJourneyAsTheIOSSDKSaysIt() throws {
        let bridge = ModuleHarness(flavor: .flutterIOS, seed: 3)
        _ = try bridge.call("frAuthStart")
        _ = try bridge.call("login")
        bridge.advanceClock(by: 301)
        #expect(
            bridge.rejection("next", .string(ModuleHarness.demo))
                == .rejection(code: "LoginFailure", message: "Authentication timed out", detail: nil))
    }

    @Test func flutterIOSRejectsAnUnknownSuspendedIdWithoutTheClassName() throws {
        let bridge = ModuleHarness(flavor: .flutterIOS, seed: 3)
        _ = try bridge.call("frAuthStart")
        let result = bridge.perform { world in
            Result { () throws(BridgeError) -> JSONValue in try world.resumeJourney(suspendedId: "nope") }
        }
        #expect(
            throws: BridgeError.rejection(
                code: "LoginFailure", message: " Token not found. It may have expired.", detail: nil)
        ) { try result.get() }
    }

    @Test func rnIOSLoginBeforeStartSaysToStartTheSDK() {
        let bridge = ModuleHarness(flavor: .reactNativeIOS)
        #expect(
            bridge.rejection("login")
                == .rejection(
                    code: "Error", message: "Invalid SDK State: initialize SDK using FRAuth.start() first", detail: nil)
        )
    }
}

/// Flutter Android as the Dart app meets it (issue 15): `frAuthStart` on the channel, and the Java
/// bridge's native DeviceProfileCallback collection.
@Suite struct FlutterAndroidChannel {
    @Test func theChannelStartsWithFrAuthStartNotStart() throws {
        let bridge = ModuleHarness(flavor: .flutterAndroid, seed: 3)
        #expect(!bridge.host.view.wireNames.contains("start"))
        #expect(try bridge.call("frAuthStart") == "SDK Initialized")
    }

    @Test func aDeviceProfileIsCollectedNativelyInNext() throws {
        let bridge = ModuleHarness(flavor: .flutterAndroid, seed: 3)
        _ = bridge.perform { world in (try? world.setServiceNames(login: "DeviceProfile", registration: nil)) != nil }
        _ = try bridge.call("frAuthStart")
        _ = try bridge.call("login")
        let profileStep = try #require(try bridge.call("next", .string(ModuleHarness.demo)).stringValue)
        #expect(profileStep.contains("DeviceProfileCallback"))
        // The Dart app sends the step back untouched; the Java bridge runs the collector itself.
        let success = try JSONParser.parse(try #require(try bridge.call("next", .string(profileStep)).stringValue))
        #expect(success["type"] == "LoginSuccess")
    }
}
