import AuthBridgeCore
import Host
import NativeModules
import TestSupport
import Testing

/// RNPingPush as the successor SDK's JS drives it (docs/ping-modules.md): a push MFA registration
/// through the `push_registration` export and `addCredentialFromUri`, then push sign-ins whose
/// notifications reach JS as the module's event and are approved, denied or answered with a
/// number from the SDK, on iOS and Android.
@Suite struct RNPingPushTests {
    static func fixture(_ path: String, up: Int) -> String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(up)
        return parts.joined(separator: "/") + path
    }

    static func harness(_ flavor: Flavor) throws -> ModuleHarness {
        var configuration = HostConfiguration()
        configuration.flavor = flavor
        configuration.seed = 11
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.journeyFiles = [
            fixture("/docs/examples/am-exports/mfa/push_registration.journey.json", up: 3),
            fixture("/Fixtures/push/PushChallenge.journey.json", up: 2),
        ]
        return try ModuleHarness(configuration: configuration)
    }

    static let demo: JSONValue = [
        "callbacks": [["type": "NameCallback", "value": "demo"], ["type": "PasswordCallback", "value": "Ch4ng3it!"]]
    ]

    /// (code, userInfo.type, message) of a typed rejection.
    static func rejected(_ error: BridgeError?) -> (String, String, String)? {
        guard case .typedRejection(let code, let message, let userInfo)? = error else { return nil }
        return (code, userInfo["type"]?.stringValue ?? "", message)
    }

    /// An AM output of the node's callback of `type` (`raw` is AM's callback JSON).
    static func output(_ node: JSONValue, _ type: String, _ name: String) -> JSONValue? {
        node["callbacks"]?.arrayValue?.lazy.compactMap { callback -> JSONValue? in
            guard callback["type"]?.stringValue == type else { return nil }
            return callback["raw"]?["output"]?.arrayValue?.first { $0["name"]?.stringValue == name }?["value"]
        }.first
    }

    /// Signs demo in on `push_registration` with a push client whose token JS set, scans the
    /// registration URI with `addCredentialFromUri`: the journey then sends the first push.
    static func register(_ h: ModuleHarness) throws -> (client: JSONValue, journey: JSONValue, credential: JSONValue) {
        let client = try h.call("RNPingPush.initialize", [:])
        #expect(try h.call("RNPingPush.setDeviceToken", client, "token-from-js", .null) == true)
        #expect(try h.call("RNPingPush.getDeviceToken", client) == ["token": "token-from-js"])
        let journey = try h.call("RNPingJourney.configureJourney", ["serverUrl": "http://localhost:8080/am"])
        _ = try h.call("RNPingJourney.start", journey, "push_registration")
        let qr = try h.call("RNPingJourney.next", journey, "", demo)
        let uri = try #require(output(qr, "HiddenValueCallback", "value")?.stringValue)
        #expect(uri.hasPrefix("pushauth://push/"))
        let credential = try h.call("RNPingPush.addCredentialFromUri", client, .string(uri))
        return (client, journey, credential)
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func aRegistrationThenASignInApprovedFromTheSDK(flavor: Flavor) throws {
        let h = try Self.harness(flavor)
        let (client, journey, credential) = try Self.register(h)
        #expect(credential["issuer"] == "ForgeRock" && credential["accountName"] == "demo")
        #expect(try h.call("RNPingPush.getCredentials", client) == ["credentials": [credential]])
        _ = h.takeEvents()
        // The registration step polls; AM sees the phone's answer and sends the first push.
        let wait = try h.call("RNPingJourney.next", journey, "", [:])
        #expect(wait["type"] == "ContinueNode")
        let events = h.takeEvents()
        #expect(events.map(\.0) == ["com.pingidentity.rnpush.PushMessageReceived"])
        let data = try #require(events.first?.1)
        // The platform's message data, which the JS layer hands to processNotification.
        let processed = try h.call("RNPingPush.processNotification", client, data)
        let notification = try #require(processed["notification"])
        #expect(notification["credentialId"] == credential["id"] && notification["pending"] == true)
        #expect(notification["pushType"] == "default")
        #expect(
            try h.call("RNPingPush.getPendingNotifications", client) == ["notifications": [notification]])
        #expect(try h.call("RNPingPush.approveNotification", client, notification["id"]!) == true)
        #expect(try h.call("RNPingPush.approveNotification", client, notification["id"]!) == false, "answered once")
        #expect(try h.call("RNPingPush.getPendingNotifications", client) == ["notifications": []])
        let all = try h.call("RNPingPush.getAllNotifications", client)["notifications"]?.arrayValue
        #expect(all?.first?["approved"] == true && all?.first?["pending"] == false)
        h.advanceClock(by: 6)
        let done = try h.call("RNPingJourney.next", journey, "", [:])
        #expect(done["type"] == "SuccessNode")
        #expect(try h.call("RNPingPush.cleanupNotifications", client, .null) == 0, "100 kept by default")
        let none = try h.call("RNPingPush.initialize", ["cleanupMode": "NONE", "maxStoredNotifications": 0])
        #expect(try h.call("RNPingPush.cleanupNotifications", none, .null) == 0)
        let strict = try h.call("RNPingPush.initialize", ["cleanupMode": "COUNT_BASED", "maxStoredNotifications": 0])
        #expect(try h.call("RNPingPush.cleanupNotifications", strict, credential["id"]!) == 1)
        #expect(try h.call("RNPingPush.getAllNotifications", client) == ["notifications": []])
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func aDenialFailsTheSignIn(flavor: Flavor) throws {
        let h = try Self.harness(flavor)
        let (client, journey, _) = try Self.register(h)
        _ = try h.call("RNPingJourney.next", journey, "", [:])
        let pending = try h.call("RNPingPush.getPendingNotifications", client)["notifications"]?.arrayValue
        let id = try #require(pending?.first?["id"])
        #expect(try h.call("RNPingPush.denyNotification", client, id) == true)
        h.advanceClock(by: 6)
        let done = try h.call("RNPingJourney.next", journey, "", [:])
        #expect(done["type"] == "ErrorNode" || done["type"] == "FailureNode")
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func aNumberChallengeIsAnsweredWithTheNumberThePageShows(flavor: Flavor) throws {
        let h = try Self.harness(flavor)
        let (client, registration, _) = try Self.register(h)
        _ = try h.call("RNPingJourney.next", registration, "", [:])
        _ = h.takeEvents()
        let journey = try h.call("RNPingJourney.configureJourney", ["serverUrl": "http://localhost:8080/am"])
        _ = try h.call("RNPingJourney.start", journey, "PushChallenge")
        let wait = try h.call(
            "RNPingJourney.next", journey, "", ["callbacks": [["type": "NameCallback", "value": "demo"]]])
        let shown = try #require(Self.output(wait, "HiddenValueCallback", "value")?.stringValue)
        let event = try #require(h.takeEvents().first?.1)
        let notification = try #require(try h.call("RNPingPush.processNotification", client, event)["notification"])
        #expect(notification["pushType"] == "challenge")
        let numbers = notification["numbersChallenge"]?.stringValue?.split(separator: ",").map(String.init) ?? []
        #expect(numbers.count == 3 && numbers.contains(shown))
        if flavor == .reactNativeIOS {
            #expect(
                Self.rejected(h.rejection("RNPingPush.approveNotification", client, notification["id"]!))?.0
                    == "invalid_parameter_value")
        } else {
            #expect(try h.call("RNPingPush.approveNotification", client, notification["id"]!) == false)
        }
        #expect(
            try h.call("RNPingPush.approveChallengeNotification", client, notification["id"]!, .string(shown)) == true)
        h.advanceClock(by: 6)
        #expect(try h.call("RNPingJourney.next", journey, "", [:])["type"] == "SuccessNode")
    }

    @Test func aSignInOverAMsRESTAPIReachesJSWithThatUnit() throws {
        let h = try Self.harness(.reactNativeIOS)
        let (client, registration, _) = try Self.register(h)
        _ = try h.call("RNPingJourney.next", registration, "", [:])
        _ = h.takeEvents()
        // Another face (a web app over --http) runs PushChallenge: its unit sends the push.
        let sent = h.perform { world -> Bool in
            guard let page = try? world.server.authenticate(.start(service: "PushChallenge")).body,
                case .object(var step) = page, case .array(var callbacks)? = step["callbacks"],
                case .object(var name) = callbacks[0]
            else { return false }
            name["input"] = [["name": "IDToken1", "value": "demo"]]
            callbacks[0] = .object(name)
            step["callbacks"] = .array(callbacks)
            return (try? world.server.authenticate(.submit(.object(step))).status) == 200
        }
        #expect(sent)
        let events = h.takeEvents()
        #expect(events.map(\.0) == ["com.pingidentity.rnpush.PushMessageReceived"])
        let pending = try h.call("RNPingPush.getPendingNotifications", client)["notifications"]?.arrayValue
        #expect(pending?.map { $0["pushType"] } == ["default", "challenge"], "the registration's, then this one")
    }

    @Test func aMessageDeliveredBeforeAnyClientWaitsForConsumePendingMessages() throws {
        let h = try Self.harness(.reactNativeAndroid)
        let (client, journey, _) = try Self.register(h)
        #expect(try h.call("RNPingPush.close", client) == .null)
        _ = h.takeEvents()
        _ = try h.call("RNPingJourney.next", journey, "", [:])
        #expect(h.takeEvents().isEmpty, "no client: queued natively")
        let queued = try h.call("RNPingPush.consumePendingMessages").arrayValue ?? []
        #expect(queued.count == 1 && queued.first?["messageId"] != nil && queued.first?["message"] != nil)
        #expect(try h.call("RNPingPush.consumePendingMessages") == [])
    }

    @Test func eachPlatformRejectsAsItsBridgeDoes() throws {
        let ios = try Self.harness(.reactNativeIOS)
        #expect(
            Self.rejected(ios.rejection("RNPingPush.getCredentials", "nope"))!
                == ("not_initialized", "state_error", "Push client not found for id: nope"))
        let client = try ios.call("RNPingPush.initialize", [:])
        #expect(
            Self.rejected(ios.rejection("RNPingPush.addCredentialFromUri", client, "otpauth://totp/x"))!
                == ("invalid_uri", "argument_error", "Invalid Push URI: not a pushauth://push/ URI"))
        let uri =
            "pushauth://push/ForgeRock:demo?m=REGISTER:1&s=c2VjcmV0&c=Y2hhbGxlbmdl&r=aHR0cDovL2FtL3B1c2g_X2FjdGlvbj1yZWdpc3Rlcg&a=aHR0cDovL2FtL3B1c2g_X2FjdGlvbj1hdXRoZW50aWNhdGU"
        #expect(
            Self.rejected(ios.rejection("RNPingPush.addCredentialFromUri", client, .string(uri)))!
                == ("device_token_not_set", "state_error", "Device token has not been set"))
        #expect(try ios.call("RNPingPush.refreshToken", client) == ["token": .null])
        #expect(
            Self.rejected(ios.rejection("RNPingPush.initialize", ["storageId": "unknown"]))!
                == (
                    "storage_failure", "internal_error",
                    "Storage failure: No push storage config registered for id=unknown"
                ))
        #expect(try ios.call("RNPingPush.getNotification", client, "x") == ["notification": .null])
        #expect(
            Self.rejected(ios.rejection("RNPingPush.denyNotification", client, "x"))!
                == ("notification_not_found", "state_error", "Notification not found: x"))

        let android = try Self.harness(.reactNativeAndroid)
        let second = try android.call("RNPingPush.initialize", ["storageId": "unknown"])
        #expect(
            Self.rejected(android.rejection("RNPingPush.addCredentialFromUri", second, "otpauth://totp/x"))!
                == ("network_failure", "network_error", "Failed to add credential from URI"))
        let token = try android.call("RNPingPush.refreshToken", second)["token"]
        #expect(token?.stringValue?.count == 64, "FCM's token for the app: the phone's own")
        #expect(try android.call("RNPingPush.getDeviceToken", second) == ["token": token!])
    }
}
