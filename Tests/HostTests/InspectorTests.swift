import AuthBridgeCore
import HTTPServer
import Host
import Inspector
import TestSupport
import Testing

/// The inspector over HTTP, request in and response out: who it answers, what its snapshot
/// shows and hides, and its live feed's framing.
@Suite struct InspectorTests {
    static func get(_ path: String, peer: String? = "127.0.0.1") -> HTTPRequest {
        var request = HTTPRequest(method: "GET", target: path)
        request.peer = peer
        return request
    }

    static func state(_ app: ModuleHarness) throws -> JSONValue {
        let response = app.perform { world in
            Inspector.respond(Self.get("/inspector/state"), world: world, host: app.host)
        }
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        return try JSONParser.parse(response.body)
    }

    @Test(arguments: ["10.0.0.5", nil] as [String?])
    func onlyLoopbackClientsAreAnswered(peer: String?) throws {
        let app = try ModuleHarness(configuration: HostConfiguration())
        for path in ["/inspector/", "/inspector/state", "/inspector/events"] {
            let response = app.perform { world in
                Inspector.respond(Self.get(path, peer: peer), world: world, host: app.host)
            }
            #expect(response.status == 403)
            #expect(response.delivery == .now)
        }
    }

    @Test func thePageComesWithItsOwnScriptAndStyleAndNothingFromElsewhere() throws {
        let app = try ModuleHarness(configuration: HostConfiguration())
        for (path, type) in [
            ("/inspector/", "text/html"), ("/inspector/app.js", "text/javascript"), ("/inspector/app.css", "text/css"),
        ] {
            let response = app.perform { world in Inspector.respond(Self.get(path), world: world, host: app.host) }
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix(type) == true)
            #expect(
                response.header("Content-Security-Policy")?.hasPrefix("default-src 'none'; script-src 'self';") == true)
            #expect(!String(decoding: response.body, as: UTF8.self).contains("https://"))
        }
        let bare = app.perform { world in Inspector.respond(Self.get("/inspector"), world: world, host: app.host) }
        #expect(bare.status == 308 && bare.header("Location") == "/inspector/")
        let post = app.perform { world in
            Inspector.respond(HTTPRequest(method: "POST", target: "/inspector/state"), world: world, host: app.host)
        }
        #expect(post.status == 403, "no peer: refused before the method is looked at")
    }

    @Test func theURLIsGivenOnlyForALoopbackFace() {
        #expect(Inspector.url(atOrigin: "http://127.0.0.1:8080") == "http://127.0.0.1:8080/inspector/")
        #expect(Inspector.url(atOrigin: "http://0.0.0.0:8080") == nil)
        #expect(Inspector.url(atOrigin: nil) == nil)
    }

    @Test func theSnapshotShowsTheWorldWithTokensCutAndNoPassword() throws {
        var configuration = HostConfiguration()
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        let app = try ModuleHarness(configuration: configuration)
        _ = try app.call("start")
        _ = try app.login()
        let state = try Self.state(app)
        let text = String(decoding: JSONWriter().bytes(state), as: UTF8.self)
        #expect(state["now"] == .double(1_767_225_600) || state["now"] == .int(1_767_225_600))
        #expect(state["virtualClock"] == true)
        let user = try #require(state["users"]?.arrayValue?.first)
        #expect(user["username"] == "demo")
        #expect(user["attributes"]?["mail"] == "demo@example.com")
        #expect(user["passwordHash"] == nil && !text.lowercased().contains("password"))
        let session = try #require(state["sessions"]?.arrayValue?.first)
        #expect(session["username"] == "demo")
        let token = try #require(session["token"]?.stringValue)
        #expect(token.hasSuffix("…") && token.count == 9)
        let grant = try #require(state["grants"]?.arrayValue?.first)
        #expect(grant["username"] == "demo")
        #expect(grant["refreshExpiresIn"]?.doubleValue.map { $0 > 0 } == true)
        #expect(grant["refreshToken"] == nil)
        #expect(state["journeys"] == [], "the login journey is over")
        let native = try #require(state["native"]?["tokens"])
        #expect(native["accessToken"]?.stringValue?.hasSuffix("…") == true)
        #expect(native["idTokenClaims"]?["sub"] != nil)
        #expect(native["idTokenClaims"]?["aud"] != nil)
        for full in app.perform({ world in [world.nativeState.tokens?.value, world.nativeState.tokens?.idToken] }) {
            #expect(!text.contains(try #require(full)), "no token appears whole")
        }
        _ = try app.call("logout")
        _ = try app.call("login")
        let waiting = try #require(Self.state(app)["journeys"]?.arrayValue?.first)
        #expect(waiting["journey"] == "Login")
        #expect(waiting["callbacks"] == ["NameCallback", "PasswordCallback"])
        #expect(waiting["timesOutIn"]?.doubleValue.map { $0 > 0 } == true)
        #expect(waiting["authId"] == nil)
    }

    @Test func theFeedSendsTheStateAtOnceThenOnceAfterUnitsThatChangedIt() throws {
        var configuration = HostConfiguration()
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        let app = try ModuleHarness(configuration: configuration)
        let response = app.perform { world in
            Inspector.respond(Self.get("/inspector/events"), world: world, host: app.host)
        }
        #expect(response.header("Content-Type") == "text/event-stream; charset=utf-8")
        guard case .stream(let stream) = response.delivery else {
            Issue.record("the feed is not streamed")
            return
        }
        let first = try #require(stream.take(waiting: 0))
        #expect(first.count == 1, "the state at once")
        _ = app.perform { _ in 0 }  // nothing changed: nothing sent
        // Many units, one page: the snapshot is built later, off their path, and sent once it
        // has changed (not once per unit).
        for _ in 0..<50 { _ = app.perform { world in try? world.advanceClock(by: 1) } }
        var frames: [[UInt8]] = []
        let last = { (frames: [[UInt8]]) in
            frames.contains { String(decoding: $0, as: UTF8.self).contains("\"now\":1767225650") }
        }
        while !last(frames), let more = stream.take(waiting: 5), !more.isEmpty { frames += more }
        #expect(last(frames), "the last state, within the wait")
        #expect(frames.count < 50, "coalesced: \(frames.count) state events for 50 units")
        for frame in first + frames {
            let text = String(decoding: frame, as: UTF8.self)
            #expect(text.hasPrefix("event: state\ndata: {") && text.hasSuffix("}\n\n"))
            #expect(text.dropLast(2).filter { $0 == "\n" }.count == 1, "one data line")
        }
        stream.close()
        _ = app.perform { world in try? world.advanceClock(by: 5) }
        #expect(app.perform { world in world.unitWatchers.isEmpty }, "a closed feed is forgotten")
    }
}
