import AuthBridgeCore
import HTTPFace
import HTTPServer
import Host
import Inspector
import Synchronization
import TestSupport
import Testing

/// The inspector's timeline: kept only when asked for, bounded, redacted only when read; the HTTP
/// face records its requests (redacted request and response, the user and journey they concern),
/// not the inspector's own; an open page gets the entries in batches.
@Suite struct TimelineTests {
    static func loopbackHost() throws -> Host {
        var configuration = HostConfiguration()
        configuration.recordsTimeline = true
        configuration.httpOrigin = "http://127.0.0.1:8080"
        return try Host(configuration: configuration)
    }

    static func request(
        _ method: String, _ target: String, headers: [HTTPRequest.Header] = [], body: String = ""
    ) -> HTTPRequest {
        var request = HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
        request.peer = "127.0.0.1"
        return request
    }

    @Test func itIsKeptOnlyWhenAskedFor() throws {
        #expect(try ModuleHarness(configuration: HostConfiguration()).host.timeline == nil)
        var configuration = HostConfiguration()
        configuration.recordsTimeline = true
        #expect(try ModuleHarness(configuration: configuration).host.timeline != nil)
    }

    @Test func itKeepsTheLastEntriesAndTellsWhatCameSinceASequence() {
        let timeline = Timeline()
        #expect(timeline.entries.isEmpty && timeline.lastSequence == 0)
        for index in 0..<(Timeline.capacity + 3) {
            timeline.record(.stdio, at: 0) { Timeline.Shown(name: "m\(index)") }
        }
        #expect(timeline.entries.count == Timeline.capacity)
        #expect(timeline.entries.first?.sequence == 4)
        #expect(timeline.entries.last?.shown.name == "m\(Timeline.capacity + 2)")
        #expect(timeline.entries.map(\.sequence) == Array(4...Int64(Timeline.capacity + 3)))
        #expect(timeline.entries(after: Int64(Timeline.capacity + 1)).map(\.shown.name) == ["m501", "m502"])
        #expect(timeline.entries(after: timeline.lastSequence).isEmpty)
        #expect(timeline.entries(after: 0).count == Timeline.capacity, "what was overwritten is gone")
    }

    @Test func recordingShowsNothingUntilTheEntryIsRead() {
        let timeline = Timeline()
        let shown = Mutex(0)
        timeline.record(.event, at: 0, concern: Timeline.Concern(user: "demo", journey: nil)) {
            shown.withLock { $0 += 1 }
            return Timeline.Shown(name: "TOKEN_EVENT", request: ["accessToken": "secret"])
        }
        #expect(shown.withLock { $0 } == 0, "no redaction, no JSON while nobody reads")
        let json = timeline.entries[0].json
        #expect(shown.withLock { $0 } == 1)
        #expect(json["name"] == "TOKEN_EVENT" && json["face"] == "event" && json["user"] == "demo")
        #expect(json["journey"] == nil)
    }

    @Test func aLargeRequestOrResponseIsCutAndSaysSo() {
        let timeline = Timeline()
        let big = String(repeating: "x", count: Timeline.shownBytes * 2)
        timeline.record(.stdio, at: 0) { Timeline.Shown(name: "m", request: ["text": .string(big)], response: [:]) }
        let json = timeline.entries[0].json
        #expect(json["request"]?["truncated"] == true)
        #expect(json["request"]?["bytes"]?.intValue.map { $0 > Int64(Timeline.shownBytes * 2) } == true)
        #expect(json["request"]?["start"]?.stringValue?.utf8.count == Timeline.shownBytes)
        #expect(json["response"] == [:])
    }

    @Test func theHTTPFaceRecordsItsRequestsButNotTheInspectors() throws {
        let host = try Self.loopbackHost()
        let handler = HTTPFace.handler(host: host, corsOrigins: [])
        for target in [
            "/am/oauth2/realms/root/realms/alpha/.well-known/openid-configuration?code=secret&state=s1",
            "/inspector/state", "/am/nowhere",
        ] {
            _ = handler(Self.request("GET", target))
        }
        let entries = try #require(host.timeline?.entries)
        #expect(
            entries.map(\.shown.name) == [
                "GET /am/oauth2/realms/root/realms/alpha/.well-known/openid-configuration", "GET /am/nowhere",
            ])
        #expect(entries.map(\.face) == [.http, .http])
        #expect(entries.map { $0.shown.response?["status"] } == [200, 404])
        #expect(entries[0].shown.request?["query"] == ["code": "[redacted]", "state": "s1"])
        #expect(entries.map(\.failed) == [false, true])
        #expect(entries.allSatisfy { $0.seconds != nil })
    }

    @Test func anHTTPLoginIsKeptRedactedAndNamesItsUserAndJourney() throws {
        let host = try Self.loopbackHost()
        let handler = HTTPFace.handler(host: host, corsOrigins: [])
        let authenticate = "/am/json/realms/root/realms/alpha/authenticate?authIndexType=service&authIndexValue=Login"
        let json = HTTPRequest.Header("Content-Type", "application/json")
        let first = handler(Self.request("POST", authenticate, headers: [json]))
        var step = try JSONParser.parse(first.body)
        step = try #require(Self.answer(step, ["demo", "Ch4ng3it!"]))
        let done = handler(
            Self.request(
                "POST", authenticate, headers: [json, .init("Cookie", "amlbcookie=01")],
                body: JSONWriter.compact(step)))
        #expect(done.status == 200)
        let tokenId = try #require(try JSONParser.parse(done.body)["tokenId"]?.stringValue)
        let entries = try #require(host.timeline?.entries)
        #expect(entries.count == 2)
        #expect(entries.map(\.concern) == [.init(user: nil, journey: "Login"), .init(user: "demo", journey: "Login")])
        let shown = JSONWriter.compact(.array(entries.map(\.json)))
        #expect(!shown.contains("Ch4ng3it!"), "the password is redacted")
        #expect(!shown.contains(tokenId), "the SSO token is redacted")
        #expect(!shown.contains("amlbcookie=01"), "cookies are redacted")
        let answered = try #require(entries.last?.shown)
        #expect(answered.request?["headers"]?["content-type"] == "application/json")
        #expect(answered.request?["headers"]?["cookie"] == "[redacted]")
        #expect(
            answered.request?["body"]?["callbacks"]?.arrayValue?.first?["input"]?.arrayValue?.first?["value"] == "demo")
        #expect(answered.response?["body"]?["tokenId"] == "[redacted]")
        #expect(answered.response?["status"] == 200)
    }

    @Test func aBodyTooLargeToShowIsNotKeptOnlyItsSize() throws {
        let host = try Self.loopbackHost()
        let handler = HTTPFace.handler(host: host, corsOrigins: [])
        let large = "[" + String(repeating: "1,", count: 40 * 1024) + "1]"
        let small = #"{"password":"hunter2","realm":"alpha"}"#
        for body in [large, small] {
            _ = handler(
                Self.request("POST", "/am/nowhere", headers: [.init("Content-Type", "application/json")], body: body))
        }
        let entries = try #require(host.timeline?.entries)
        #expect(
            entries[0].shown.request?["body"] == .string("<\(large.utf8.count) bytes of application/json, not shown>"))
        #expect(entries[1].shown.request?["body"] == ["password": "[redacted]", "realm": "alpha"])
    }

    /// A step's callbacks answered in order (one input each).
    static func answer(_ step: JSONValue, _ values: [String]) -> JSONValue? {
        guard case .object(var object) = step, case .array(var callbacks)? = object["callbacks"] else { return nil }
        for (index, value) in values.enumerated() where index < callbacks.count {
            guard case .object(var callback) = callbacks[index], case .array(var inputs)? = callback["input"],
                case .object(var input) = inputs[0]
            else { return nil }
            input["value"] = .string(value)
            inputs[0] = .object(input)
            callback["input"] = .array(inputs)
            callbacks[index] = .object(callback)
        }
        object["callbacks"] = .array(callbacks)
        return .object(object)
    }

    @Test func anOpenPageGetsTheKeptEntriesThenTheNewOnesInBatches() throws {
        let host = try Self.loopbackHost()
        let timeline = try #require(host.timeline)
        timeline.record(.stdio, at: 0) { Timeline.Shown(name: "kept") }
        let response = host.perform { world in
            Inspector.respond(Self.request("GET", "/inspector/events"), world: world, host: host)
        }
        guard case .success(let opened) = response, case .stream(let stream) = opened.delivery else {
            Issue.record("the feed is not streamed")
            return
        }
        defer { stream.close() }
        for index in 0..<100 { timeline.record(.event, at: 0) { Timeline.Shown(name: "e\(index)") } }
        var names: [String] = []
        var batches = 0
        while names.last != "e99", let frames = stream.take(waiting: 5), !frames.isEmpty {
            for frame in frames {
                let text = String(decoding: frame, as: UTF8.self)
                guard text.hasPrefix("event: timeline\ndata: ") else { continue }
                let data = try JSONParser.parse(String(text.dropFirst("event: timeline\ndata: ".count).dropLast(2)))
                names += data.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
                batches += 1
            }
        }
        #expect(names == ["kept"] + (0..<100).map { "e\($0)" })
        #expect(batches < 101, "batched: \(batches) events for 101 entries")
    }
}
