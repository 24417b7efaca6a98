import AuthBridgeCore
import Foundation
import Testing

@testable import TestSupport

/// Native calls that wait for JS (parked calls), over the real stdio face of the built binary:
/// `RNPingBinding.bindForJourney` with the app's PIN collector emits `RNPingBinding_PinRequired`
/// and answers nothing until `resolvePin`; then its response comes, after the settling call's
/// events and before that call's own response.
@Suite struct ParkedCallsTests {
    static let fixture: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Tests/Fixtures/binding/BindDevicePin.journey.json"
    }()

    /// The daemon and how many of its output lines the test has read.
    final class Session {
        let daemon: DaemonProcess
        private var seen = 0

        init(_ flavor: String, stateDir: String? = nil) throws {
            daemon = try DaemonProcess(
                ["--seed", "5", "--clock", "virtual", "--flavor", flavor, "--journeys", ParkedCallsTests.fixture]
                    + (stateDir.map { ["--state-dir", $0] } ?? []))
        }

        /// Sends one line and returns the next `count` lines of output.
        func send(_ line: String, expecting count: Int) -> [JSONValue] {
            daemon.write(line + "\n")
            daemon.waitForLines(seen + count)
            let all = daemon.messagesSoFar()
            defer { seen = all.count }
            return Array(all.dropFirst(seen))
        }

        func close() {
            daemon.closeInput()
            _ = daemon.wait()
        }

        /// A journey of BindDevicePin at its DeviceBindingCallback; its id.
        func journeyAtBinding() throws -> String {
            let id = try #require(
                send(Requests.call(1, "RNPingJourney.configureJourney", #"[{"serverUrl":"http://am"}]"#), expecting: 1)
                    .first?["result"]?.stringValue)
            _ = send(Requests.call(2, "RNPingJourney.start", #"["\#(id)","BindDevicePin"]"#), expecting: 1)
            _ = send(
                Requests.call(
                    3, "RNPingJourney.next", #"["\#(id)","",{"callbacks":[{"type":"NameCallback","value":"demo"}]}]"#),
                expecting: 1)
            let node = send(
                Requests.call(
                    4, "RNPingJourney.next",
                    #"["\#(id)","",{"callbacks":[{"type":"PasswordCallback","value":"Ch4ng3it!"}]}]"#),
                expecting: 1)
            #expect(node.first?["result"]?["callbacks"]?.arrayValue?.first?["type"] == "DeviceBindingCallback")
            return id
        }

        static func bind(_ id: Int?, _ journey: String) -> String {
            let params = #"["\#(journey)",{},{"hasPinCollector":true}]"#
            guard let id else {
                return #"{"jsonrpc":"2.0","method":"RNPingBinding.bindForJourney","params":\#(params)}"#
            }
            return Requests.call(id, "RNPingBinding.bindForJourney", params)
        }
    }

    @Test func theParkedRequestIsAnsweredOnlyOnceResolvePinComes() throws {
        let s = try Session("rn-android")
        defer { s.close() }
        let journey = try s.journeyAtBinding()
        let prompt = s.send(Session.bind(10, journey), expecting: 1)
        #expect(prompt.first?["method"] == "RNPingBinding_PinRequired")
        #expect(prompt.first?["id"] == nil)
        let requestId = try #require(prompt.first?["params"]?["requestId"]?.stringValue)
        // Another call meanwhile is answered; the parked one still is not.
        let keys = s.send(Requests.call(11, "RNPingBinding.getAllKeys", "[]"), expecting: 1)
        #expect(keys.map { $0["id"] } == [11])
        let settled = s.send(
            Requests.call(12, "RNPingBinding.resolvePin", #"["\#(requestId)","1234"]"#), expecting: 2)
        #expect(settled.map { $0["id"] } == [10, 12], "the parked response first, then the settling call's")
        #expect(settled.first?["result"] == ["type": "success"])
        #expect(settled.last?["result"] == .null)
        let node = s.send(Requests.call(13, "RNPingJourney.next", #"["\#(journey)","",{}]"#), expecting: 1)
        #expect(node.first?["result"]?["type"] == "SuccessNode")
    }

    @Test func aParkedCallInsideABatchIsAnsweredOnItsOwnLater() throws {
        let s = try Session("rn-android")
        defer { s.close() }
        let journey = try s.journeyAtBinding()
        let batch = "[" + Session.bind(20, journey) + "," + Requests.call(21, "RNPingBinding.getAllKeys", "[]") + "]"
        let out = s.send(batch, expecting: 2)
        #expect(out.first?["method"] == "RNPingBinding_PinRequired")
        #expect(out.last?.arrayValue?.map { $0["id"] } == [21], "the batch's array holds only what answered")
        let requestId = try #require(out.first?["params"]?["requestId"]?.stringValue)
        let settled = s.send(
            Requests.call(22, "RNPingBinding.resolvePin", #"["\#(requestId)","1234"]"#), expecting: 2)
        #expect(settled.map { $0["id"] } == [20, 22])
    }

    @Test func aNotificationThatParksSettlesWithNoResponse() throws {
        let s = try Session("rn-android")
        defer { s.close() }
        let journey = try s.journeyAtBinding()
        let prompt = s.send(Session.bind(nil, journey), expecting: 1)
        let requestId = try #require(prompt.first?["params"]?["requestId"]?.stringValue)
        let settled = s.send(
            Requests.call(31, "RNPingBinding.resolvePin", #"["\#(requestId)","1234"]"#), expecting: 1)
        #expect(settled.map { $0["id"] } == [31])
        // The bind ran: the callback carries the JWS, and the server binds the key.
        let node = s.send(Requests.call(32, "RNPingJourney.next", #"["\#(journey)","",{}]"#), expecting: 1)
        #expect(node.first?["result"]?["type"] == "SuccessNode")
    }

    @Test func cancelPinRejectsTheParkedCallAsIOSDoes() throws {
        let s = try Session("rn-ios")
        defer { s.close() }
        let journey = try s.journeyAtBinding()
        let requestId = try #require(
            s.send(Session.bind(40, journey), expecting: 1).first?["params"]?["requestId"]?.stringValue)
        let out = s.send(Requests.call(41, "RNPingBinding.cancelPin", #"["\#(requestId)"]"#), expecting: 2)
        #expect(out.map { $0["id"] } == [40, 41])
        #expect(out.first?["error"]?["code"] == -32000)
        #expect(out.first?["error"]?["data"]?["code"] == "BINDING_AUTH_FAILED")
        #expect(out.first?["error"]?["data"]?["userInfo"]?["type"] == "binding_error")
    }

    @Test func aPromptTimesOutWhenTheDaemonsClockPassesItsSixtySeconds() throws {
        let s = try Session("rn-android")
        defer { s.close() }
        let journey = try s.journeyAtBinding()
        _ = s.send(Session.bind(50, journey), expecting: 1)
        _ = s.send(Requests.call(51, "emulator.advanceClock", #"{"seconds":60}"#), expecting: 1)
        // The deadline is checked when the module is next called.
        let out = s.send(Requests.call(52, "RNPingBinding.getAllKeys", "[]"), expecting: 2)
        #expect(out.map { $0["id"] } == [50, 52])
        #expect(out.first?["error"]?["message"] == "PIN collection timed out")
    }

    static func stateDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("parked-\(UUID().uuidString)").path
    }

    static func remove(_ dir: String) {
        try? FileManager.default.removeItem(atPath: dir)
        try? FileManager.default.removeItem(atPath: dir + ".moved")
    }

    /// Replaces the directory the daemon writes (its lock and journal go with the old one): the
    /// daemon's next save is refused.
    static func refuseNextSave(_ dir: String) throws {
        try FileManager.default.moveItem(atPath: dir, toPath: dir + ".moved")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
    }

    @Test func aSettleWhoseChangeCannotBeSavedAnswersTheParkedCallWithAnError() throws {
        let dir = Self.stateDirectory()
        defer { Self.remove(dir) }
        let s = try Session("rn-android", stateDir: dir)
        defer { s.close() }
        let journey = try s.journeyAtBinding()
        let requestId = try #require(
            s.send(Session.bind(60, journey), expecting: 1).first?["params"]?["requestId"]?.stringValue)
        try Self.refuseNextSave(dir)
        let out = s.send(Requests.call(61, "RNPingBinding.resolvePin", #"["\#(requestId)","1234"]"#), expecting: 2)
        #expect(out.map { $0["id"] } == [60, 61])
        #expect(out.first?["error"]?["data"]?["code"] == "STATE_NOT_SAVED")
        #expect(out.last?["error"]?["code"] == -32001)
    }

    /// A call parked by a unit whose change is lost got -32001 from its face: nothing answers it
    /// again, not even its prompt timing out later.
    @Test func aCallParkedByALostChangeIsNotAnsweredTwice() throws {
        let dir = Self.stateDirectory()
        defer { Self.remove(dir) }
        let s = try Session("rn-android", stateDir: dir)
        defer { s.close() }
        let journey = try s.journeyAtBinding()
        try Self.refuseNextSave(dir)
        let refused = s.send(Session.bind(70, journey), expecting: 1)
        #expect(refused.map { $0["id"] } == [70])
        #expect(refused.first?["error"]?["code"] == -32001)
        _ = s.send(Requests.call(71, "emulator.advanceClock", #"{"seconds":61}"#), expecting: 1)
        let later = s.send(Requests.call(72, "RNPingBinding.getAllKeys", "[]"), expecting: 1)
        #expect(later.map { $0["id"] } == [72])
        #expect(s.send(Requests.call(73, "daemon.hello"), expecting: 1).map { $0["id"] } == [73])
    }
}
