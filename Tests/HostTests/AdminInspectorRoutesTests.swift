import AdminHTTP
import AuthBridgeCore
import HTTPServer
import Host
import TestSupport
import Testing

/// The admin endpoints the inspector page acts through, request in and response out: the clock,
/// push answers, a user's revocation, a scripted node's outcome, a session ended by its opsId;
/// and the page's own origin let in.
@Suite struct AdminInspectorRoutesTests {
    static func harness(virtual: Bool = true) throws -> ModuleHarness {
        var configuration = HostConfiguration()
        if virtual { configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch) }
        return try ModuleHarness(configuration: configuration)
    }

    static func call(
        _ app: ModuleHarness, _ method: String, _ path: String, _ body: JSONValue? = nil, origin: String? = nil
    ) throws -> (status: Int, body: JSONValue) {
        var request = HTTPRequest(
            method: method, target: "/emulator/v1/" + path, headers: origin.map { [.init("Origin", $0)] } ?? [],
            body: body.map { JSONWriter().bytes($0) } ?? [])
        request.peer = "127.0.0.1"
        let response = app.perform { world in
            AdminAPI(corsOrigins: [], ownOrigin: "http://127.0.0.1:8080").respond(request, world: world)
        }
        return (response.status, try JSONParser.parse(response.body))
    }

    @Test func theClockMovesOnlyWhenVirtual() throws {
        let app = try Self.harness()
        let moved = try Self.call(app, "POST", "clock/advance", ["seconds": 30])
        #expect(moved.status == 200)
        #expect(moved.body["now"]?.doubleValue == VirtualClock.defaultEpoch + 30)
        #expect(try Self.call(app, "GET", "clock").body["virtual"] == true)
        let refused = try Self.call(try Self.harness(virtual: false), "POST", "clock/advance", ["seconds": 1])
        #expect(refused.status == 400 && refused.body["error"]?["field"] == "seconds")
        #expect(try Self.call(app, "POST", "clock/advance", ["seconds": "1"]).status == 400)
    }

    @Test func aPushAnswerNamesAPhoneThatExists() throws {
        let app = try Self.harness()
        let missing = try Self.call(app, "POST", "phones/nobody/notifications/m1/approve")
        #expect(missing.status == 404 && missing.body["error"]?["field"] == "phone")
        let bad = try Self.call(app, "POST", "phones/app/notifications/m1/approve", ["number": 1000])
        #expect(bad.status == 400 && bad.body["error"]?["field"] == "number")
        let none = try Self.call(app, "POST", "phones/app/notifications/m1/deny")
        #expect(none.status == 409)
        #expect(try Self.call(app, "GET", "phones/app/notifications").body["notifications"] == [])
    }

    @Test func aUsersSessionsAndGrantsAreRevoked() throws {
        let app = try Self.harness()
        _ = try app.call("start")
        _ = try app.login()
        let revoked = try Self.call(app, "POST", "users/demo/revoke")
        #expect(revoked.status == 200 && revoked.body["sessions"] == 1)
        #expect(try Self.call(app, "POST", "users/nobody/revoke").status == 404)
    }

    @Test func aScriptedNodesOutcomeIsSetOrRefused() throws {
        let app = try Self.harness()
        #expect(try Self.call(app, "PUT", "journeys/Login/nodes/x/outcome", [:]).status == 400)
        let unknown = try Self.call(app, "PUT", "journeys/Nowhere/nodes/x/outcome", ["outcome": "true"])
        #expect(unknown.status == 404)
    }

    @Test func aSessionEndedByItsOpsIdLogsTheNativeSideOut() throws {
        let app = try Self.harness()
        _ = try app.call("tokenSyncReady")
        _ = try app.call("start")
        _ = try app.login()
        _ = app.takeEvents()
        let opsId = try #require(app.perform { world in world.embedded.sessions.all.first?.opsId })
        #expect(try Self.call(app, "DELETE", "sessions/ops/\(opsId)").status == 200)
        #expect(app.takeEvents().map(\.0) == ["LOGOUT_EVENT"])
        #expect(try Self.call(app, "DELETE", "sessions/ops/\(opsId)").status == 404)
    }

    @Test func theFacesOwnOriginIsNotCrossOrigin() throws {
        let app = try Self.harness()
        #expect(try Self.call(app, "GET", "clock", origin: "http://127.0.0.1:8080").status == 200)
        #expect(try Self.call(app, "GET", "clock", origin: "http://127.0.0.1:9999").status == 403)
    }

    @Test func aFailedJourneyHasATimelineEntryWithItsNodeAndReason() throws {
        var configuration = HostConfiguration()
        configuration.recordsTimeline = true
        let app = try ModuleHarness(configuration: configuration)
        _ = try app.call("start")
        _ = try? app.login("demo", "wrong")
        let entry = try #require(app.host.timeline?.entries.first { $0.face == .journey })
        #expect(entry.failed)
        #expect(entry.shown.response?["reason"]?["code"] == "wrong_password")
        #expect(entry.shown.response?["node"] != .null)
        #expect(entry.shown.name.hasPrefix("Login failed at "))
        #expect(entry.concern == Timeline.Concern(user: "demo", journey: "Login"))
    }
}
