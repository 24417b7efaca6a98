import AuthBridgeCore
import Host
import NativeModules
import TestSupport
import Testing

/// RNPingBinding as the SDK's JS calls it: a journey reaches a DeviceBindingCallback or a
/// DeviceSigningVerifierCallback, `bindForJourney` / `signForJourney` answer it with the app's
/// phone (a PIN prompt parks the call until `resolvePin`), and `RNPingJourney.next` submits it
/// to the embedded server's nodes, which verify the JWS.
@Suite struct RNPingBindingTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    static func harness(_ flavor: Flavor) throws -> ModuleHarness {
        var configuration = HostConfiguration()
        configuration.flavor = flavor
        configuration.seed = 5
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.journeyFiles = [
            root + "/docs/examples/am-exports/mfa/DeviceBinding.journey.json",
            root + "/Tests/Fixtures/binding/BindDevicePin.journey.json",
        ]
        return try ModuleHarness(configuration: configuration)
    }

    /// Two users bind a key each on the app's phone (BindDevice, no prompts), so a usernameless
    /// sign-in has two keys to choose from.
    static func bindDemoAndAda(_ app: ModuleHarness) throws {
        _ = app.perform { world in try? world.addUser(username: "ada", password: "Passw0rd!", attributes: [:]) }
        for (user, password) in [("demo", "Ch4ng3it!"), ("ada", "Passw0rd!")] {
            let id = try app.call("RNPingJourney.configureJourney", ["serverUrl": "http://am"])
            _ = try app.call("RNPingJourney.start", id, "BindDevice", ["forceAuth": true])
            _ = try app.call(
                "RNPingJourney.next", id, "", ["callbacks": [["type": "NameCallback", "value": .string(user)]]])
            _ = try app.call(
                "RNPingJourney.next", id, "", ["callbacks": [["type": "PasswordCallback", "value": .string(password)]]])
            _ = app.begin("RNPingBinding.bindForJourney", id, [:], [:])
            #expect(try app.call("RNPingJourney.next", id, "", ["callbacks": []])["type"] == "SuccessNode")
        }
    }

    /// A journey started and answered up to its binding or signing callback; its id.
    static func journey(_ app: ModuleHarness, _ name: String, signing: Bool = false) throws -> String {
        let id = try app.call("RNPingJourney.configureJourney", ["serverUrl": "http://localhost:8080/am"])
        guard let id = id.stringValue else { throw Failed() }
        _ = try app.call("RNPingJourney.start", .string(id), .string(name))
        var input: JSONValue = ["callbacks": [["type": "NameCallback", "value": "demo"]]]
        var node = try app.call("RNPingJourney.next", .string(id), "", input)
        if !signing {
            input = ["callbacks": [["type": "PasswordCallback", "value": "Ch4ng3it!"]]]
            node = try app.call("RNPingJourney.next", .string(id), "", input)
        }
        let types = node["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue }
        #expect(types == [signing ? "DeviceSigningVerifierCallback" : "DeviceBindingCallback"])
        return id
    }

    struct Failed: Error {}

    /// `next` with the callbacks as the bind or sign left them.
    static func submit(_ app: ModuleHarness, _ id: String) throws -> JSONValue {
        try app.call("RNPingJourney.next", .string(id), "", ["callbacks": []])
    }

    static func message(_ node: JSONValue) -> String? {
        node["callbacks"]?.arrayValue?.first { $0["type"] == "TextOutputCallback" }?["message"]?.stringValue
    }

    /// (code, userInfo.type, message) of a typed rejection.
    static func rejected(_ outcome: Result<JSONValue, BridgeError>?) -> (String, String, String)? {
        guard case .failure(.typedRejection(let code, let message, let userInfo))? = outcome else { return nil }
        return (code, userInfo["type"]?.stringValue ?? "", message)
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func bindThenSignInWithTheSameKey(flavor: Flavor) throws {
        let app = try Self.harness(flavor)
        let bind = try Self.journey(app, "BindDevice")
        guard case .settled(let bound) = app.begin("RNPingBinding.bindForJourney", .string(bind), [:], [:]) else {
            Issue.record("a biometric bind does not park")
            return
        }
        #expect(try bound.get() == ["type": "success"])
        #expect(try Self.submit(app, bind)["type"] == "SuccessNode")
        let keys = try app.call("RNPingBinding.getAllKeys").arrayValue ?? []
        #expect(keys.count == 1)
        #expect(keys.first?["username"] == "demo")
        #expect(keys.first?["authenticationType"] == "BIOMETRIC_ALLOW_FALLBACK")

        let sign = try Self.journey(app, "DeviceLogin", signing: true)
        guard case .settled(let signed) = app.begin("RNPingBinding.signForJourney", .string(sign), [:], [:]) else {
            Issue.record("a biometric sign does not park")
            return
        }
        #expect(try signed.get() == ["type": "success"])
        #expect(try Self.submit(app, sign)["type"] == "SuccessNode")
        #expect(app.takeEvents().isEmpty, "no prompt went to JS")
    }

    @Test func aPinPromptParksTheBindUntilJSAnswers() throws {
        let app = try Self.harness(.reactNativeAndroid)
        let bind = try Self.journey(app, "BindDevicePin")
        let address = try app.parked(
            "RNPingBinding.bindForJourney", .string(bind), ["appPin": ["prompt": ["title": "Your PIN"]]],
            ["hasPinCollector": true])
        let events = app.takeEvents()
        #expect(events.map(\.0) == ["RNPingBinding_PinRequired"])
        let prompt = try #require(events.first?.1)
        #expect(prompt["title"] == "Your PIN")
        #expect(prompt["subtitle"] == "Choose a PIN")
        #expect(prompt["description"] == "Enter a PIN for this app")
        #expect(app.reply(to: address) == nil, "no answer before the PIN")
        let requestId = try #require(prompt["requestId"])
        #expect(try app.call("RNPingBinding.resolvePin", requestId, "4321") == .null)
        #expect(try app.reply(to: address)?.get() == ["type": "success"])
        #expect(try Self.submit(app, bind)["type"] == "SuccessNode")
        // A second resolvePin for the settled request changes nothing.
        #expect(try app.call("RNPingBinding.resolvePin", requestId, "4321") == .null)

        // Signing asks the PIN again: a wrong one is asked again, the right one signs.
        let sign = try Self.journey(app, "DeviceLogin", signing: true)
        let signing = try app.parked("RNPingBinding.signForJourney", .string(sign), [:], ["hasPinCollector": true])
        let first = try #require(app.takeEvents().first?.1["requestId"])
        _ = try app.call("RNPingBinding.resolvePin", first, "0000")
        #expect(app.reply(to: signing) == nil)
        let second = try #require(app.takeEvents().first?.1["requestId"])
        #expect(second != first)
        _ = try app.call("RNPingBinding.resolvePin", second, "4321")
        #expect(try app.reply(to: signing)?.get() == ["type": "success"])
        #expect(try Self.submit(app, sign)["type"] == "SuccessNode")
    }

    @Test func iOSAsksThePinTwiceWhenBinding() throws {
        let app = try Self.harness(.reactNativeIOS)
        let bind = try Self.journey(app, "BindDevicePin")
        let address = try app.parked("RNPingBinding.bindForJourney", .string(bind), [:], ["hasPinCollector": true])
        let first = try #require(app.takeEvents().first?.1["requestId"])
        _ = try app.call("RNPingBinding.resolvePin", first, "2468")
        #expect(app.reply(to: address) == nil, "register, then authenticate")
        let second = try #require(app.takeEvents().first?.1["requestId"])
        _ = try app.call("RNPingBinding.resolvePin", second, "2468")
        #expect(try app.reply(to: address)?.get() == ["type": "success"])
        #expect(try Self.submit(app, bind)["type"] == "SuccessNode")
    }

    @Test(arguments: [
        (
            Flavor.reactNativeIOS, "BINDING_AUTH_FAILED", "binding_error",
            "The operation couldn’t be completed. (PingBinding.DeviceBindingStatus error 4.)"
        ),
        (.reactNativeAndroid, "BINDING_BIND_ERROR", "internal_error", "PIN collection cancelled"),
    ])
    func cancelPinRejectsAsThePlatformDoesAndTheNodeGoesAbort(
        flavor: Flavor, code: String, type: String, message: String
    ) throws {
        let app = try Self.harness(flavor)
        let bind = try Self.journey(app, "BindDevicePin")
        let address = try app.parked("RNPingBinding.bindForJourney", .string(bind), [:], ["hasPinCollector": true])
        let requestId = try #require(app.takeEvents().first?.1["requestId"])
        _ = try app.call("RNPingBinding.cancelPin", requestId)
        let rejection = try #require(Self.rejected(app.reply(to: address)))
        #expect(rejection == (code, type, message))
        // The callback carries the client error, as the SDK's callback sets it: the node's Abort
        // outcome, which this journey wires to its failure.
        #expect(try Self.submit(app, bind)["type"] == "ErrorNode")
        #expect(try app.call("RNPingBinding.getAllKeys") == [])
    }

    @Test func aPromptTimesOutOnTheDaemonsClock() throws {
        let app = try Self.harness(.reactNativeAndroid)
        let bind = try Self.journey(app, "BindDevicePin")
        let address = try app.parked("RNPingBinding.bindForJourney", .string(bind), [:], ["hasPinCollector": true])
        let requestId = try #require(app.takeEvents().first?.1["requestId"])
        app.advanceClock(by: 59)
        #expect(try app.call("RNPingBinding.getAllKeys") == [])
        #expect(app.reply(to: address) == nil, "59 s: still waiting")
        app.advanceClock(by: 1)
        #expect(try app.call("RNPingBinding.getAllKeys") == [])
        #expect(Self.rejected(app.reply(to: address))?.2 == "PIN collection timed out")
        // The late answer finds nothing.
        #expect(try app.call("RNPingBinding.resolvePin", requestId, "1111") == .null)
    }

    @Test func errorsBeforeTheCallback() throws {
        let app = try Self.harness(.reactNativeIOS)
        let blank = Self.rejected(app.begin("RNPingBinding.bindForJourney", " ", [:], [:]).settledResult)
        #expect(blank?.0 == "BINDING_CALLBACK_NOT_FOUND")
        #expect(blank?.1 == "argument_error")
        #expect(blank?.2 == "Journey id must not be empty for device binding.")
        let missing = Self.rejected(app.begin("RNPingBinding.signForJourney", "nope", [:], [:]).settledResult)
        #expect(missing?.2 == "No active DeviceSigningVerifierCallback found for journey nope.")
        #expect(missing?.1 == "state_error")
        let android = try Self.harness(.reactNativeAndroid)
        let missingAndroid = Self.rejected(
            android.begin("RNPingBinding.bindForJourney", "nope", ["index": 2], [:]).settledResult)
        #expect(missingAndroid?.2 == "No active DeviceBindingCallback found for journey nope at index 2.")
        let delete = Self.rejected(
            Result { () throws(BridgeError) in try app.call("RNPingBinding.deleteKey", "u", "k") })
        #expect(delete?.0 == "BINDING_KEY_DELETE_ERROR")
        #expect(delete?.2 == "No binding key found.")
    }

    @Test func keysAreListedAndDeletedAsThePlatformNamesThem() throws {
        let app = try Self.harness(.reactNativeAndroid)
        let bind = try Self.journey(app, "BindDevice")
        _ = app.begin("RNPingBinding.bindForJourney", .string(bind), [:], [:])
        let key = try #require(try app.call("RNPingBinding.getAllKeys").arrayValue?.first)
        // Android lists the key alias: the base64url SHA-256 of the user id.
        let userId = try #require(key["userId"]?.stringValue)
        #expect(key["id"] == .string(Base64URL.encode(SHA256.hash(Array(userId.utf8)))))
        #expect(try app.call("RNPingBinding.deleteKey", .string(userId), key["id"]!) == .null)
        #expect(try app.call("RNPingBinding.getAllKeys") == [])
        #expect(try app.call("RNPingBinding.deleteAllKeys") == .null)
    }

    /// Two users bound on the app's phone; a usernameless sign-in asks JS which key.
    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func aUsernamelessSignInAsksJSForTheKey(flavor: Flavor) throws {
        let app = try Self.harness(flavor)
        try Self.bindDemoAndAda(app)
        let id = try app.call("RNPingJourney.configureJourney", ["serverUrl": "http://am"])
        _ = try app.call("RNPingJourney.start", id, "DeviceLoginUsernameless")
        let address = try app.parked("RNPingBinding.signForJourney", id, [:], ["hasUserKeySelector": true])
        let event = try #require(app.takeEvents().first)
        #expect(event.0 == "RNPingBinding_UserKeyRequired")
        let keys = event.1["userKeys"]?.arrayValue ?? []
        #expect(keys.compactMap { $0["username"]?.stringValue } == ["demo", "ada"])
        let ada = try #require(keys.last?["id"])
        // resolvePin does not answer a key request.
        _ = try app.call("RNPingBinding.resolvePin", event.1["requestId"]!, "1234")
        #expect(app.reply(to: address) == nil)
        _ = try app.call("RNPingBinding.selectUserKey", event.1["requestId"]!, ada)
        #expect(try app.reply(to: address)?.get() == ["type": "success"])
        let node = try app.call("RNPingJourney.next", id, "", ["callbacks": []])
        #expect(node["type"] == "SuccessNode")
    }

    @Test func cancelUserKeyRejectsAsCancelledOnIOS() throws {
        let app = try Self.harness(.reactNativeIOS)
        try Self.bindDemoAndAda(app)
        let id = try app.call("RNPingJourney.configureJourney", ["serverUrl": "http://am"])
        _ = try app.call("RNPingJourney.start", id, "DeviceLoginUsernameless")
        let address = try app.parked("RNPingBinding.signForJourney", id, [:], ["hasUserKeySelector": true])
        let requestId = try #require(app.takeEvents().first?.1["requestId"])
        _ = try app.call("RNPingBinding.cancelUserKey", requestId)
        #expect(Self.rejected(app.reply(to: address))?.0 == "BINDING_CANCELLED")
    }
}

extension ModuleHarness.Outcome {
    var settledResult: Result<JSONValue, BridgeError>? {
        if case .settled(let result) = self { return result }
        return nil
    }
}
