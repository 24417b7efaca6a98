import AuthBridgeCore
import HTTPFace
import HTTPServer
import Host
import Synchronization
import TestSupport
import Testing

/// The inspector's timeline: kept only when asked for, bounded, heard by listeners until they
/// leave; the HTTP face records its requests (path, status, time), not the inspector's own.
@Suite struct TimelineTests {
    @Test func itIsKeptOnlyWhenAskedFor() throws {
        #expect(try ModuleHarness(configuration: HostConfiguration()).host.timeline == nil)
        var configuration = HostConfiguration()
        configuration.recordsTimeline = true
        #expect(try ModuleHarness(configuration: configuration).host.timeline != nil)
    }

    @Test func itKeepsTheLastEntriesAndTellsListenersUntilTheyLeave() {
        let timeline = Timeline()
        for index in 0..<(Timeline.capacity + 3) { timeline.record(face: "stdio", name: "m\(index)", at: 0) }
        #expect(timeline.entries.count == Timeline.capacity)
        #expect(timeline.entries.first?.sequence == 4)
        #expect(timeline.entries.last?.name == "m\(Timeline.capacity + 2)")
        let heard = Heard()
        let kept = timeline.listen { entry in
            heard.names.withLock { $0.append(entry.name) }
            return true
        }
        #expect(kept.count == Timeline.capacity)
        timeline.record(face: "event", name: "TOKEN_EVENT", at: 0)
        #expect(heard.names.withLock { $0 } == ["TOKEN_EVENT"])
        _ = timeline.listen { _ in false }
        #expect(timeline.listenerCount == 2)
        timeline.record(face: "http", name: "GET /", at: 0)
        #expect(timeline.listenerCount == 1, "a listener that says no more is forgotten")
    }

    @Test func theHTTPFaceRecordsItsRequestsButNotTheInspectors() throws {
        var configuration = HostConfiguration()
        configuration.recordsTimeline = true
        configuration.httpOrigin = "http://127.0.0.1:8080"
        let host = try Host(configuration: configuration)
        let handler = HTTPFace.handler(host: host, corsOrigins: [])
        for target in [
            "/am/oauth2/realms/root/realms/alpha/.well-known/openid-configuration?code=secret", "/inspector/state",
            "/am/nowhere",
        ] {
            var request = HTTPRequest(method: "GET", target: target)
            request.peer = "127.0.0.1"
            _ = handler(request)
        }
        let entries = try #require(host.timeline?.entries)
        #expect(
            entries.map(\.name) == [
                "GET /am/oauth2/realms/root/realms/alpha/.well-known/openid-configuration", "GET /am/nowhere",
            ])
        #expect(entries.map(\.face) == ["http", "http"])
        #expect(entries.map(\.response) == [["status": 200], ["status": 404]])
        #expect(entries.map(\.failed) == [false, true])
        #expect(entries.allSatisfy { $0.milliseconds != nil })
    }
}

final class Heard: Sendable {
    let names = Mutex<[String]>([])
}
