import AuthBridgeCore
import EmbeddedAM
import TestSupport
import Testing

@testable import NativeModules
@testable import NativeSDK

/// The built-in journeys through the RN iOS bridge: what the sample bridge does with each
/// callback type (RN-E's `FRAuthSampleBridge.swift` `next`, docs/flavors.md), and what `--callbacks complete` does instead.
@Suite struct JourneyBridgeTests {
    static func start(_ journey: String, callbacks: CallbackHandling = .sample) throws -> (ModuleHarness, String) {
        let bridge = ModuleHarness(callbacks: callbacks)
        bridge.perform { $0.sdk.setServiceNames(login: journey, registration: nil) }
        _ = try bridge.call("start")
        let first = try bridge.call("login").stringValue!
        let second = try bridge.call("next", ModuleHarness.answer(first, ["demo", "Ch4ng3it!"]))
        return (bridge, second.stringValue ?? "")
    }

    static func step(_ text: String) -> JSONValue { (try? JSONParser.parse(text)) ?? .null }

    @Test func aDeviceProfileIsCollectedNativelyAndJSValuesAreIgnored() throws {
        let (bridge, step) = try Self.start("DeviceProfile")
        #expect(Self.step(step)["callbacks"]?.arrayValue?.first?["type"] == "DeviceProfileCallback")
        // JS sends nothing useful: RN-E collects the profile itself and submits at once.
        let result = try bridge.call("next", ModuleHarness.answer(step, ["not a profile"]))
        #expect(result["type"] == "LoginSuccess")
    }

    @Test func theCollectedProfileHasTheIOSShape() {
        let collector = DeviceProfileCollector(platform: .ios) { "abc" }
        let profile = (try? JSONParser.parse(collector.profile(metadata: true, location: false))) ?? .null
        #expect(profile["identifier"] == "abc")
        #expect(profile["metadata"]?["platform"]?["platform"] == "iOS")
        #expect(profile["location"] == nil)
    }

    @Test func theSampleBridgeRejectsCallbacksItCannotHandleAndKeepsTheStep() throws {
        let (bridge, step) = try Self.start("PollingWait")
        let rejection = bridge.rejection("next", ModuleHarness.answer(step, values: [.null, .null]))
        #expect(
            rejection
                == .rejection(
                    code: "Error", message: "Received an unsupported callback",
                    detail: "callback 0 is a PollingWaitCallback"))
        #expect(bridge.perform { $0.sdk.currentNode?.callbackType(at: 0) } == .pollingWait)
    }

    @Test func theCompleteBridgeAnswersConfirmationsAndPolls() throws {
        let (bridge, step) = try Self.start("PollingWait", callbacks: .complete)
        let again = try bridge.call("next", ModuleHarness.answer(step, values: [.null, .null])).stringValue ?? ""
        #expect(Self.step(again)["callbacks"]?.arrayValue?.first?["type"] == "PollingWaitCallback")
        let exit = bridge.rejection("next", ModuleHarness.answer(again, values: [.null, 0]))
        #expect(exit == .rejection(code: "Error", message: "LoginFailure", detail: "Login failure"))
    }

    @Test func aSuspendedJourneyResumesThroughTheBridge() throws {
        let bridge = ModuleHarness()
        bridge.perform { $0.sdk.setServiceNames(login: "EmailSuspend", registration: nil) }
        _ = try bridge.call("start")
        let first = try bridge.call("login").stringValue!
        let suspended = try bridge.call("next", ModuleHarness.answer(first, ["demo"])).stringValue ?? ""
        #expect(Self.step(suspended)["callbacks"]?.arrayValue?.first?["type"] == "SuspendedTextOutputCallback")
        let id = bridge.perform { $0.embedded.outbox.lastSuspendLink?.suspendedId } ?? ""
        #expect(try bridge.resume(id).get()["type"] == "LoginSuccess")
        _ = try bridge.call("logout")
        #expect(throws: BridgeError.self) { try bridge.resume(id).get() }
    }
}

extension ModuleHarness {
    /// The app opening a suspended journey's e-mailed link (`emulator.resumeJourney`).
    fileprivate func resume(_ suspendedId: String) -> Result<JSONValue, BridgeError> {
        perform { world in Result { () throws(BridgeError) in try world.resumeJourney(suspendedId: suspendedId) } }
    }
}
