import AuthBridgeCore
import Dispatch
import Host
import JSONRPC
import NativeModules
import RPCFace
import TestSupport
import Testing

import class Foundation.FileManager
import class Foundation.Thread
import struct Foundation.UUID

private func call(_ id: Int, _ method: String, _ params: String? = nil) -> String { Requests.call(id, method, params) }

/// The Host in process: a whole scenario through its units of work, no binary spawned.
@Suite struct HostScenario {
    @Test func aWholeLoginThroughTheHost() throws {
        let app = ModuleHarness(seed: 7)
        #expect(try app.call("tokenSyncReady") == .null)
        #expect(app.takeEvents().map(\.0) == ["TOKEN_REQUEST_EVENT"])
        #expect(try app.call("start") == "SDK initialized")
        #expect(try app.login()["type"] == "LoginSuccess")
        let events = app.takeEvents()
        #expect(events.map(\.0) == ["TOKEN_EVENT"])
        #expect(events[0].1["reason"] == "login")
        #expect(try app.call("getUserInfo")["name"] == "Demo User")
        let state = app.perform { $0.nativeState }
        #expect(state.generation == 1)
        #expect(state.hasSSOSession)
        #expect(state.sessions == 1)
        #expect(try app.call("logout") == .null)
        #expect(app.takeEvents().isEmpty, "a logout JS asked for is not echoed")
        #expect(app.perform { $0.nativeState.tokens } == nil)
    }

    @Test func emulatorOperationsNameTheArgumentAtFault() {
        let app = ModuleHarness()
        #expect(throws: EmulatorError(param: "seconds", reason: "seconds must not be negative")) {
            try app.perform { world in Result { () throws(EmulatorError) in try world.advanceClock(by: -1) } }.get()
        }
        #expect(throws: EmulatorError(param: "username", reason: "no user named nobody")) {
            try app.perform { world in
                Result { () throws(EmulatorError) in try world.revokeSessions(username: "nobody") }
            }.get()
        }
    }

    /// One owner, one refresh: fifty callers near expiry, on fifty threads, cause exactly one
    /// refresh at the server and all get the same token.
    @Test func fiftyConcurrentCallersNearExpiryCauseOneRefresh() throws {
        let app = ModuleHarness()
        _ = try app.call("start")
        _ = try app.login()
        let before = app.perform { $0.sdk.accessToken!.value }
        app.advanceClock(by: 3599 - 30)
        let host = app.host
        let tokens = concurrently(50) { _ -> String? in
            guard
                case .success(.settled(.success(let token))) = host.perform({ world in
                    world.invoke("getAccessToken", [])
                })
            else { return nil }
            return token.stringValue
        }
        #expect(app.perform { $0.embedded.refreshCount } == 1)
        #expect(Set(tokens).count == 1)
        #expect(tokens[0]?.contains(before) == false)
    }

    /// `start()` with a delay is an effect, not a held world: its unit ends at once with the
    /// wait for the face to schedule, another face's unit (here on another thread, joined before
    /// the wait is over) runs meanwhile, as the app's other native calls do during the sample's
    /// `asyncAfter`, and the start settles in a unit of its own afterwards.
    @Test func aDelayedStartIsAWaitTheFaceSchedulesWithTheWorldReleased() throws {
        var configuration = HostConfiguration()
        configuration.startDelay = 0.4
        let host = try Host(configuration: configuration)
        guard case .success(.later(let later)) = host.perform({ world in world.invoke("start", []) }) else {
            Issue.record("start() with --start-delay should settle later")
            return
        }
        #expect(later.seconds == 0.4)
        #expect(try host.perform { $0.sdk.isStarted }.get() == false, "nothing settles before the wait")
        let other = DispatchGroup()
        other.enter()
        Thread {
            _ = host.perform { world in
                (try? world.addUser(username: "ada", password: "Lovelace1!", attributes: [:])) != nil
            }
            other.leave()
        }.start()
        other.wait()
        #expect(try host.perform { $0.settle(later) }.get() == .success("SDK initialized"))
        #expect(try host.perform { world in (world.sdk.isStarted, world.nativeState.users) }.get() == (true, 2))
    }

    @Test func stateSurvivesAHostRestartOnTheSameDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("host-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = HostConfiguration()
        configuration.seed = 11
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.stateDirectory = directory
        var first: Host? = try Host(configuration: configuration)
        let id = try first!.perform { world in
            Result { () throws(EmulatorError) in
                try world.addUser(username: "ada", password: "Lovelace1!", attributes: [:]).id
            }
        }.get().get()
        first = nil
        let second = try Host(configuration: configuration)
        #expect(try second.perform { $0.embedded.users.find(username: "ada")?.id }.get() == id)
    }
}

/// The stdio face over an in-process Host: requests in, events and responses out, in order.
@Suite struct RPCFaceInProcess {
    static func face(seed: UInt64 = 7) throws -> RPCFace {
        var configuration = HostConfiguration()
        configuration.seed = seed
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        return RPCFace(host: try Host(configuration: configuration))
    }

    @Test func eventsComeBeforeTheResponseOfTheRequestThatCausedThem() throws {
        let out = try InProcessSession.exchange(try Self.face(), lines: [call(1, "tokenSyncReady")] + Requests.login)
        #expect(
            out.map { $0["method"]?.stringValue ?? "#\($0["id"]!.intValue!)" } == [
                "TOKEN_REQUEST_EVENT", "#1", "#1", "#2", "TOKEN_EVENT", "#3",
            ])
        #expect(out[4]["params"]?["reason"] == "login")
    }

    /// The face schedules a delayed start's wait with the world released: another face's unit,
    /// on its own thread, runs to its end inside the wait (were the world held, it could not),
    /// and the start settles afterwards, its response in order.
    @Test func aDelayedStartLetsAnotherFacesUnitThroughWhileTheFaceWaits() throws {
        var configuration = HostConfiguration()
        configuration.seed = 7
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.startDelay = 2
        let host = try Host(configuration: configuration)
        let face = RPCFace(host: host)
        var waits: [Double] = []
        face.wait = { seconds in
            waits.append(seconds)
            let other = DispatchGroup()
            other.enter()
            Thread {
                _ = host.perform { world in
                    (try? world.addUser(username: "ada", password: "Lovelace1!", attributes: [:])) != nil
                }
                other.leave()
            }.start()
            other.wait()
        }
        let out = try InProcessSession.exchange(face, lines: [call(1, "start"), call(2, "emulator.state")])
        #expect(waits == [2])
        #expect(out[0]["result"] == "SDK initialized")
        #expect(out[1]["result"]?["server"]?["users"] == 2, "the demo user and ada, added during the wait")
    }

    @Test func eventsInABatchPrecedeTheBatchReply() throws {
        let batch = "[" + [call(1, "tokenSyncReady"), call(2, "emulator.requestToken")].joined(separator: ",") + "]"
        let out = try InProcessSession.exchange(try Self.face(), lines: [batch])
        #expect(
            out.map { $0["method"]?.stringValue ?? "batch" } == ["TOKEN_REQUEST_EVENT", "TOKEN_REQUEST_EVENT", "batch"])
        #expect(out[2].arrayValue?.count == 2)
    }

    @Test func helloListsTheCatalogThenDaemonAndEmulatorMethods() throws {
        let out = try InProcessSession.exchange(try Self.face(), lines: [call(1, "daemon.hello")])
        let methods = out[0]["result"]?["methods"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(
            Array(methods.prefix(10)) == [
                "start", "login", "register", "next", "getUserInfo", "getAccessToken", "logout",
                "tokenSyncReady", "tokenUpdate", "exchangeToken",
            ])
        #expect(methods.contains("daemon.shutdown") && methods.contains("emulator.state"))
        // The token-sync events, then the Ping modules' own (`NativeEventEmitter`).
        let events = out[0]["result"]?["events"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Array(events.prefix(3)) == ["TOKEN_EVENT", "LOGOUT_EVENT", "TOKEN_REQUEST_EVENT"])
        #expect(events.contains("RNPingBinding_PinRequired") && events.contains("RNPingBinding_UserKeyRequired"))
    }
}

/// One state for every face: the embedded server reports ended sessions to the credentials'
/// owner, so a session ended elsewhere logs the native side out, and only then.
@Suite struct SessionsEndedElsewhere {
    private func loggedIn() throws -> ModuleHarness {
        let app = ModuleHarness(seed: 7)
        _ = try app.call("tokenSyncReady")
        _ = try app.call("start")
        _ = try app.login()
        _ = app.takeEvents()
        return app
    }

    @Test func aLogoutOfTheNativeSessionElsewhereIsALogoutEvent() throws {
        let app = try loggedIn()
        let sso = app.perform { $0.sdk.tokens.ssoToken! }
        // What the HTTP face does for `POST …/sessions?_action=logout`.
        #expect(app.perform { $0.embedded.logoutSession(ssoToken: sso).status } == 200)
        let events = app.takeEvents()
        #expect(events.map(\.0) == ["LOGOUT_EVENT"])
        #expect(events.first?.1 == ["reason": "session_ended", "generation": 2])
        #expect(app.perform { $0.sdk.accessToken } == nil)
    }

    @Test func endSessionWithTheNativeIdTokenLogsOutToo() throws {
        let app = try loggedIn()
        let idToken = app.perform { $0.sdk.accessToken!.idToken! }
        _ = app.perform { $0.embedded.endSession(idTokenHint: idToken, clientId: nil, at: .endSessionEndpoint) }
        #expect(app.takeEvents().map { $0.1["reason"] } == ["session_ended"])
    }

    @Test func theNativeSidesOwnLogoutsAreNotReportedTwice() throws {
        let app = try loggedIn()
        _ = try app.call("logout")
        #expect(app.takeEvents().isEmpty)
        _ = try app.login()
        _ = app.takeEvents()
        #expect(app.perform { $0.nativeLogout() })
        #expect(app.takeEvents().map { $0.1["reason"] } == ["native_logout"])
    }

    @Test func anotherSessionEndingChangesNothing() throws {
        let app = try loggedIn()
        let other = app.perform { host -> String? in
            let step = host.embedded.authenticate(.start(service: "Login")).body
            var payload = step.objectValue!
            payload["callbacks"] = try! JSONParser.parse(
                #"[{"type":"NameCallback","input":[{"name":"IDToken1","value":"demo"}]},{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"Ch4ng3it!"}]}]"#
            )
            return host.embedded.authenticate(.submit(.object(payload))).body["tokenId"]?.stringValue
        }
        #expect(other != nil && other != app.perform { $0.sdk.tokens.ssoToken })
        _ = app.perform { $0.embedded.logoutSession(ssoToken: other!) }
        #expect(app.takeEvents().isEmpty)
        #expect(app.perform { $0.sdk.accessToken } != nil)
    }

    /// The native session past AM's Maximum Idle Time ends when the server next looks at it
    /// (here a `validate` over HTTP): the native side is logged out as by a logout elsewhere.
    @Test func theNativeSessionExpiringIsALogoutEvent() throws {
        let app = try loggedIn()
        let sso = app.perform { $0.sdk.tokens.ssoToken! }
        app.advanceClock(by: 30 * 60 - 1)
        #expect(app.perform { $0.embedded.validateSession(ssoToken: sso).body["valid"] } == true)
        #expect(app.takeEvents().isEmpty)
        app.advanceClock(by: 1)
        #expect(app.perform { $0.embedded.validateSession(ssoToken: sso).body } == ["valid": false])
        let events = app.takeEvents()
        #expect(events.map(\.0) == ["LOGOUT_EVENT"])
        #expect(events.first?.1 == ["reason": "session_ended", "generation": 2])
        #expect(app.perform { $0.sdk.accessToken } == nil)
    }

    @Test func anAdministratorsRevocationWaitsForTheNextRefresh() throws {
        let app = try loggedIn()
        _ = try app.perform { world in
            Result { () throws(EmulatorError) in try world.revokeSessions(username: nil).sessions }
        }.get()
        #expect(app.takeEvents().isEmpty, "emulator.revokeSession keeps its documented behaviour")
        #expect(app.perform { $0.sdk.accessToken } != nil)
    }
}
