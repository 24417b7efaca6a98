import AuthBridgeCore
import HTTPServer
import Host
import Inspector
import RPCFace
import TestSupport
import Testing

/// `emulator.expireTokens` over stdio, and what the inspector's snapshot shows of grants,
/// tokens and token sync: request in, answer and events out.
@Suite struct InspectorWorldTests {
    static func configuration() -> HostConfiguration {
        var configuration = HostConfiguration()
        configuration.seed = 9
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        return configuration
    }

    static func call(_ id: Int, _ method: String, _ params: String? = nil) -> String {
        Requests.call(id, method, params)
    }

    /// The answer comes with no event; the next getAccessToken refreshes, its TOKEN_EVENT before
    /// its response; an unknown or missing user is −32602 naming `username`.
    @Test func expireTokensAnswersThenTheNextGetAccessTokenRefreshes() throws {
        let face = RPCFace(host: try Host(configuration: Self.configuration()))
        let out = try InProcessSession.exchange(
            face,
            lines: [Self.call(1, "tokenSyncReady")] + Requests.login + [
                Self.call(4, "emulator.expireTokens", #"{"username":"demo"}"#), Self.call(5, "getAccessToken"),
                Self.call(6, "emulator.expireTokens", #"{"username":"nobody"}"#), Self.call(7, "emulator.expireTokens"),
            ])
        #expect(
            out.map { $0["method"]?.stringValue ?? "#\($0["id"]?.intValue ?? 0)" } == [
                "TOKEN_REQUEST_EVENT", "#1", "#1", "#2", "TOKEN_EVENT", "#3", "#4", "TOKEN_EVENT", "#5", "#6", "#7",
            ])
        #expect(out[6]["result"] == ["accessTokensExpired": 1, "nativeExpired": true])
        #expect(out[7]["params"]?["reason"] == "refresh")
        #expect(out[7]["params"]?["generation"] == 2)
        for answer in out[9...] {
            #expect(answer["error"]?["code"] == -32602)
            #expect(answer["error"]?["data"]?["param"] == "username")
        }
        #expect(out[9]["error"]?["message"]?.stringValue?.contains("no user named nobody") == true)
    }

    static func state(_ app: ModuleHarness) throws -> JSONValue {
        var request = HTTPRequest(method: "GET", target: "/inspector/state")
        request.peer = "127.0.0.1"
        let response = app.perform { world in Inspector.respond(request, world: world, host: app.host) }
        return try JSONParser.parse(response.body)
    }

    @Test func theSnapshotShowsTheGrantsTokensAndTheTokenSyncHistory() throws {
        let app = try ModuleHarness(configuration: Self.configuration())
        _ = try app.call("start")
        _ = try app.call("tokenSyncReady")
        _ = try app.login()
        let old = try #require(app.perform { $0.sdk.accessToken?.value })
        let expired = try app.perform { world in
            Result { () throws(EmulatorError) in try world.expireTokens(username: "demo") }
        }.get()
        #expect(expired.accessTokens == 1 && expired.native)
        #expect(app.takeEvents().map(\.0) == ["TOKEN_REQUEST_EVENT", "TOKEN_EVENT"], "nothing sent by the expiry")
        _ = try app.call("getAccessToken")
        #expect(app.takeEvents().map { $0.1["reason"] } == ["refresh"])
        let introspection = app.perform { world in
            world.embedded.introspect(form: ["client_id": "ReactNativeOAuthClient", "token": old]).body
        }
        #expect(introspection == ["active": false])

        let state = try Self.state(app)
        let grant = try #require(state["grants"]?.arrayValue?.first)
        #expect(grant["state"] == "active" && grant["username"] == "demo")
        let tokens = try #require(grant["accessTokens"]?.arrayValue)
        #expect(tokens.map { $0["state"] } == ["expired", "active"])
        #expect(tokens[0]["claims"]?["sub"] == grant["idTokenClaims"]?["sub"])
        #expect(tokens[0]["header"]?["alg"] == "RS256")
        #expect(!String(decoding: JSONWriter().bytes(state), as: UTF8.self).contains(old), "never the token itself")
        let native = try #require(state["native"])
        #expect(native["flavor"] == "rn-ios" && native["variant"] == "sample")
        #expect(
            native["history"]?.arrayValue?.map { [$0["kind"], $0["name"], $0["reason"]] } == [
                ["sent", "TOKEN_REQUEST_EVENT", "ready"], ["sent", "TOKEN_EVENT", "login"],
                ["sent", "TOKEN_EVENT", "refresh"],
            ])
        #expect(state["scriptedNodes"] == [])
    }

    @Test func aChangeJSMadeAndOneMadeBeforeJSListenedAreInTheHistory() throws {
        let app = try ModuleHarness(configuration: Self.configuration())
        _ = try app.call("start")
        _ = try app.login()
        _ = try app.call("tokenSyncReady")
        _ = try app.call("logout")
        let history = try #require(try Self.state(app)["native"]?["history"]?.arrayValue)
        #expect(
            history.map { [$0["kind"], $0["name"], $0["reason"]] } == [
                ["held", "TOKEN_EVENT", "login"], ["sent", "TOKEN_EVENT", "ready"], ["fromJS", "logout", "logout"],
            ])
    }
}

/// The successor SDK's token slot is reached too: RNPingOidc's next `token` refreshes.
@Suite struct ExpireTokensPingTests {
    @Test func theRNPingOidcTokenOfTheUserIsRefreshedAtItsNextRead() throws {
        var configuration = InspectorWorldTests.configuration()
        configuration.flavor = .reactNativeAndroid
        let app = try ModuleHarness(configuration: configuration)
        let journey = try app.call("RNPingJourney.configureJourney", PingStateTests.journeyConfig)
        let client = try app.call("RNPingOidc.createClient", PingStateTests.oidcConfig)
        let web = try app.call("RNPingOidc.createWebClient", client)
        _ = try app.call("RNPingJourney.start", journey, "Login")
        #expect(try app.call("RNPingJourney.next", journey, "", PingStateTests.demo)["type"] == "SuccessNode")
        _ = try app.call("RNPingJourney.getSession", journey)
        let before = try app.call("RNPingOidc.token", web)
        let expired = try app.perform { world in
            Result { () throws(EmulatorError) in try world.expireTokens(username: "demo") }
        }.get()
        #expect(expired.native)
        let refreshes = app.perform { $0.embedded.refreshCount }
        let after = try app.call("RNPingOidc.token", web)
        #expect(after != before)
        #expect(app.perform { $0.embedded.refreshCount } == refreshes + 1, "a refresh, not a new login")
    }
}
