import AuthBridgeCore
import Host
import NativeModules
import TestSupport
import Testing

/// `--callbacks complete`: the bridge's native side scans the registration QR code into the
/// user's phone and, while JS polls, approves the pending notification tapping the number the
/// page shows, as an app with the authenticator module and a person holding the phone would.
@Suite struct PushCompleteModeTests {
    static let journeys: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/Fixtures/push/PushChallenge.journey.json"
    }()

    static func harness(callbacks: CallbackHandling) throws -> ModuleHarness {
        var configuration = HostConfiguration()
        configuration.seed = 5
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.callbacks = callbacks
        configuration.journeyFiles = [journeys]
        configuration.authServiceName = "PushChallenge"
        return try ModuleHarness(configuration: configuration)
    }

    /// JS sends each step back as it came (`JSON.stringify(step)`), the username first.
    static func send(_ h: ModuleHarness, _ step: JSONValue, name: String? = nil) throws -> JSONValue {
        guard case .string(let text) = step else { return step }
        let payload = name.map { ModuleHarness.answer(text, [$0]) } ?? .string(text)
        return try h.call("next", payload)
    }

    @Test func theAppRegistersAndApprovesANumberChallengeByItself() throws {
        let h = try Self.harness(callbacks: .complete)
        _ = try h.call("start")
        let qr = try Self.send(h, try h.call("login"), name: "demo")
        let wait = try Self.send(h, qr)
        let step = try JSONParser.parse(Array((wait.stringValue ?? "").utf8))
        let types = step["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue }
        #expect(types == ["PollingWaitCallback", "HiddenValueCallback", "ConfirmationCallback"])
        #expect(h.perform { $0.phones.phone(id: "demo")?.push.count } == 1, "scanned once")
        #expect(h.perform { $0.phones.phone(id: "demo")?.notifications.count } == 1)
        let again = try Self.send(h, wait)
        #expect(
            h.perform { $0.phones.phone(id: "demo")?.notifications.map(\.approved) } == [true], "approved on the poll")
        h.advanceClock(by: 6)
        let done = try Self.send(h, again)
        #expect(done["type"] == "LoginSuccess")
    }
}
