import AuthBridgeCore
import Host
import NativeSDK
import TestSupport
import Testing

@testable import NativeModules

/// RNPingFido, RNPingDeviceProfile and RNPingDeviceId as the SDK's JS calls them
/// (docs/ping-modules.md): the journey waits at a node, the module answers its callback on the
/// app's phone, JS calls `RNPingJourney.next`; per platform.
@Suite struct RNPingFidoTests {
    static let passkeyJourney: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/docs/examples/am-exports/mfa/Passkey.journey.json"
    }()

    static func app(_ flavor: Flavor) -> ModuleHarness {
        var configuration = HostConfiguration()
        configuration.flavor = flavor
        configuration.seed = 5
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.journeyFiles = [passkeyJourney]
        return try! ModuleHarness(configuration: configuration)
    }

    static let demo: JSONValue = [
        "callbacks": [["type": "NameCallback", "value": "demo"], ["type": "PasswordCallback", "value": "Ch4ng3it!"]]
    ]

    /// A journey started and past its credentials page: (app, journey id, the node).
    static func atPasskeyStep(
        _ flavor: Flavor, app given: ModuleHarness? = nil
    ) throws -> (ModuleHarness, JSONValue, JSONValue) {
        let app = given ?? Self.app(flavor)
        let id = try app.call("RNPingJourney.configureJourney", ["serverUrl": "http://localhost:8080/am"])
        _ = try app.call("RNPingJourney.start", id, "PasskeyLogin", ["forceAuth": true])
        return (app, id, try app.call("RNPingJourney.next", id, "", demo))
    }

    static func types(_ node: JSONValue) -> [String] {
        node["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func aPasskeyIsRegisteredThenUsedThroughTheJourneyCallbacks(_ flavor: Flavor) throws {
        let (app, id, registration) = try Self.atPasskeyStep(flavor)
        // iOS keeps the FIDO specialization of the MetadataCallback, as Android does.
        #expect(Self.types(registration) == ["FidoRegistrationCallback", "HiddenValueCallback"])
        #expect(registration["callbacks"]?.arrayValue?.first?.objectValue?.keys == ["type", "raw"])
        #expect(
            try app.call("RNPingFido.registerCredentialForJourney", id, ["deviceName": "Ada"], [:]) == [
                "type": "success"
            ])
        #expect(try app.call("RNPingJourney.next", id, "", [:])["type"] == "SuccessNode")
        // The device name rode on the outcome, and AM kept it.
        let names = app.perform { world in (try? world.devices(of: "demo"))?.registered?.webAuthn.map(\.deviceName) }
        #expect(names == ["Ada"])

        _ = try app.call("RNPingJourney.logout", id)
        let (_, again, authentication) = try Self.atPasskeyStep(flavor, app: app)
        #expect(Self.types(authentication) == ["FidoAuthenticationCallback", "HiddenValueCallback"])
        #expect(try app.call("RNPingFido.authenticateCredentialForJourney", again, [:], [:]) == ["type": "success"])
        #expect(try app.call("RNPingJourney.next", again, "", [:])["type"] == "SuccessNode")
    }

    @Test func aCancelledPromptIsRejectedAsEachPlatformDoes() throws {
        for (flavor, type, message) in [
            (
                Flavor.reactNativeIOS, "fido_error",
                "The operation couldn\u{2019}t be completed. (com.apple.AuthenticationServices.AuthorizationError error 1001.)"
            ),
            (.reactNativeAndroid, "internal_error", "activity is cancelled by the user."),
        ] {
            let (app, id, _) = try Self.atPasskeyStep(flavor)
            app.perform { world in
                // As `emulator.setBindingPrompts {phone: "app"}` does before the app's first call.
                if let id = try? world.phoneId(username: nil, phone: "app") {
                    world.setBindingPrompts(phone: id, [.cancel])
                }
            }
            guard
                case .typedRejection(let code, let text, let userInfo)? =
                    app.rejection("RNPingFido.registerCredentialForJourney", id, [:], [:])
            else {
                Issue.record("not a typed rejection")
                continue
            }
            #expect(code == "FIDO_REGISTER_ERROR" && text == message && userInfo["type"]?.stringValue == type)
            // The callback wrote the error outcome: AM reads it and the journey fails.
            #expect(try app.call("RNPingJourney.next", id, "", [:])["type"] == "ErrorNode")
        }
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func noPasskeyOnThePhoneIsACancelledAuthentication(_ flavor: Flavor) throws {
        let (app, id, _) = try Self.atPasskeyStep(flavor)
        _ = try app.call("RNPingFido.registerCredentialForJourney", id, [:], [:])
        _ = try app.call("RNPingJourney.next", id, "", [:])
        _ = app.perform { world in world.resetPhone(id: "app") }
        _ = try app.call("RNPingJourney.logout", id)
        let (_, again, _) = try Self.atPasskeyStep(flavor, app: app)
        guard
            case .typedRejection(let code, let message, _)? =
                app.rejection("RNPingFido.authenticateCredentialForJourney", again, [:], [:])
        else { throw BridgeError.notImplemented("expected a rejection") }
        #expect(code == "FIDO_AUTHENTICATE_CANCELLED")
        #expect(message.hasPrefix(flavor == .reactNativeAndroid ? "FIDO authentication cancelled: " : "The operation"))
    }

    @Test func aMissingCallbackOrBlankIdIsRejected() throws {
        for flavor in [Flavor.reactNativeIOS, .reactNativeAndroid] {
            let app = Self.app(flavor)
            guard
                case .typedRejection(let code, let message, let info)? =
                    app.rejection("RNPingFido.registerCredentialForJourney", " ", [:], [:])
            else { throw BridgeError.notImplemented("expected a rejection") }
            #expect(code == "FIDO_CALLBACK_NOT_FOUND" && info["type"] == "argument_error")
            #expect(message == "Journey id must not be empty for FIDO registration.")
            guard
                case .typedRejection(_, let missing, let state)? =
                    app.rejection("RNPingFido.authenticateCredentialForJourney", "nope", ["index": 2], [:])
            else { throw BridgeError.notImplemented("expected a rejection") }
            #expect(state["type"] == "state_error")
            #expect(
                missing
                    == "No active FIDO authentication callback found for journey nope"
                    + (flavor == .reactNativeAndroid ? " at index 2." : "."))
            #expect(
                app.rejection("RNPingFido.registerCredential", [:])
                    == .invalidParams(
                        reason: "registerCredential takes 2 arguments (options, config), got 1", param: nil))
        }
    }

    @Test func standaloneResultsAreEachPlatformsShape() throws {
        let ios = Self.app(.reactNativeIOS)
        let options: JSONValue = [
            "challenge": "AAECAwQFBgcICQoLDA0ODw==", "rp": ["id": "example.com"], "user": ["id": "ada", "name": "ada"],
        ]
        let registered = try ios.call("RNPingFido.registerCredential", options, [:])
        #expect(registered["rawId"] == "32 bytes" && registered["authenticatorAttachment"] == "platform")
        let android = Self.app(.reactNativeAndroid)
        let webAuthnJSON: JSONValue = [
            "challenge": "AAECAwQFBgcICQoLDA0ODw", "rp": ["id": "example.com"], "user": ["id": "YWRh", "name": "ada"],
        ]
        let credential = try android.call("RNPingFido.registerCredential", webAuthnJSON, [:])
        #expect(credential["type"] == "public-key" && credential["id"] == credential["rawId"])
        let assertion = try android.call(
            "RNPingFido.authenticateCredential", ["challenge": "AAECAwQFBgcICQoLDA0ODw", "rpId": "example.com"], [:])
        #expect(assertion["response"]?["userHandle"] == "YWRh")
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func theDeviceIdIsStableAndIsTheProfilesIdentifier(_ flavor: Flavor) throws {
        let app = ModuleHarness(flavor: flavor)
        let id = try app.call("RNPingDeviceId.getDefaultDeviceId")
        #expect(try app.call("RNPingDeviceId.getDefaultDeviceId") == id)
        #expect(id.stringValue?.count == 64)
        let journey = try app.call("RNPingJourney.configureJourney", ["serverUrl": "http://localhost:8080/am"])
        _ = try app.call("RNPingJourney.start", journey, "DeviceProfile")
        let step = try app.call("RNPingJourney.next", journey, "", Self.demo)
        #expect(Self.types(step) == ["DeviceProfileCallback"])
        #expect(
            try app.call("RNPingDeviceProfile.collectDeviceProfileForJourney", journey, ["platform", "location"])
                == ["type": "success"])
        #expect(try app.call("RNPingJourney.next", journey, "", [:])["type"] == "SuccessNode")
    }

    @Test func theCallbackOutcomesAreEachSDKsText() {
        let legacy = #"{"type":"webauthn.create","origin":"https://example.com"}::1,2::AQ"#
        #expect(FidoOutcome.value(legacy, supportsJson: false, platform: .ios) == legacy)
        // iOS's JSONSerialization escapes slashes; Android's kotlinx does not.
        #expect(FidoOutcome.value(legacy, supportsJson: true, platform: .ios).contains(#"https:\/\/example.com"#))
        #expect(FidoOutcome.value(legacy, supportsJson: true, platform: .android).contains(#"https://example.com"#))
        let cancel = FidoFailure.of(.cancelled, platform: .ios, registering: false)
        #expect(cancel.outcome == "ERROR::NotAllowedError:The operation was canceled." && cancel.recoverable)
        #expect(
            FidoFailure.of(.notAllowed, platform: .android, registering: false).outcome.hasPrefix(
                "ERROR::UnknownError:"))
        #expect(FidoFailure.of(.notSupported, platform: .android, registering: true).outcome == "unsupported")
    }

    @Test func theJourneyProfileFollowsAMsRequestAndTheNamedCollectors() {
        for flavor in [Flavor.reactNativeIOS, .reactNativeAndroid] {
            let app = ModuleHarness(flavor: flavor)
            func profile(_ names: [String], metadata: Bool, location: Bool) -> JSONObject? {
                app.perform { world in
                    let module = world.catalog.modules.first { $0.name == "RNPingDeviceProfile" }
                    return (module as? RNPingDeviceProfileModule)?.journeyProfile(
                        names, metadata: metadata, location: location, identifier: "id")
                }
            }
            let full = profile(["platform", "location"], metadata: true, location: true)
            #expect(
                full?.keys
                    == (flavor == .reactNativeIOS
                        ? ["version", "identifier", "metadata", "location"]
                        : ["identifier", "metadata", "location", "version"]))
            let bare = profile(["location"], metadata: true, location: false)
            #expect(bare?["metadata"] == nil && bare?["location"] == nil && bare?["identifier"] == "id")
        }
    }
}
