import AuthBridgeCore
@testable import BridgeSDK
import Foundation
import IdentityServer
import Testing

/// A token endpoint that takes its time, so concurrent callers really overlap, and counts calls.
final class SlowTokenServer: IdentityServer, @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    var refuse = false
    let delay: useconds_t

    init(delay: useconds_t = 30_000) { self.delay = delay }

    var tokenCalls: Int { lock.withLock { calls } }

    func token(form: [String: String]) -> ServerReply {
        let n = lock.withLock { () -> Int in
            calls += 1
            return calls
        }
        usleep(delay)
        if refuse { return ServerReply(status: 400, body: ["error": "invalid_grant", "error_description": "grant is invalid"]) }
        return ServerReply(status: 200, body: [
            "access_token": .string("access-\(n)"), "refresh_token": .string("refresh-\(n)"), "scope": "openid",
            "token_type": "Bearer", "expires_in": 3599,
        ])
    }

    func authenticate(_ request: AuthenticateRequest) -> ServerReply { ServerReply(status: 500) }
    func authorize(_ request: AuthorizeRequest) -> ServerReply { ServerReply(status: 400, body: ["error": "interaction_required"]) }
    func userInfo(accessToken: String) -> ServerReply { ServerReply(status: 500) }
    func revoke(form: [String: String]) -> ServerReply { ServerReply(status: 200) }
    func endSession(idTokenHint: String, clientId: String?) -> ServerReply { ServerReply(status: 200) }
    func logoutSession(ssoToken: String) -> ServerReply { ServerReply(status: 200) }
}

/// Runs `body` on `count` threads released at the same instant; returns their results in order.
private final class ResultBox<T>: @unchecked Sendable {
    let lock = NSLock()
    var results: [Int: T] = [:]
}

func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let box = ResultBox<T>()
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            start.wait()
            let value = body(index)
            box.lock.withLock { box.results[index] = value }
            group.leave()
        }.start()
    }
    for _ in 0..<count { start.signal() }
    group.wait()
    return (0..<count).map { box.results[$0]! }
}

@Suite struct SingleFlightUnderConcurrency {
    @Test func concurrentCallersShareOneRun() {
        let flight = SingleFlight<Int, Never>()
        let counter = NSLock()
        nonisolated(unsafe) var runs = 0
        let results = concurrently(50) { _ in
            flight.run { () -> Int in
                let n = counter.withLock { () -> Int in
                    runs += 1
                    return runs
                }
                usleep(50_000)
                return n
            }
        }
        // Threads that arrive after a run ended start the next one; most share the first.
        #expect(Set(results).count == runs)
        #expect(runs < 50)
        #expect(results.filter { $0 == 1 }.count > 1)
    }

    @Test func anErrorReachesEveryWaiter() {
        struct Boom: Error, Equatable {}
        let flight = SingleFlight<Int, Boom>()
        let results = concurrently(20) { _ in
            Result { () throws(Boom) -> Int in
                try flight.run { () throws(Boom) -> Int in
                    usleep(50_000)
                    throw Boom()
                }
            }
        }
        #expect(results.allSatisfy { if case .failure = $0 { true } else { false } })
    }

    @Test func runsInSequenceAreSeparate() {
        let flight = SingleFlight<Int, Never>()
        var n = 0
        for _ in 0..<3 { _ = flight.run { n += 1; return n } }
        #expect(n == 3)
    }
}

@Suite struct RefreshUnderConcurrency {
    static func manager(_ server: SlowTokenServer, clock: VirtualClock) -> TokenManager {
        let client = OAuthClient(server: server, options: SDKOptions(), clock: clock, random: SeededRandomSource(seed: 1))
        let manager = TokenManager(client: client, clock: clock, threshold: 60)
        let token = AccessToken(
            value: "access-0", refreshToken: "refresh-0", idToken: nil, tokenType: "Bearer",
            expiresAt: Int64(clock.now) + 30, scope: "openid", now: clock.now)
        _ = manager.adopt(token)
        return manager
    }

    @Test func fiftyCallersNearExpiryCauseOneRefreshAndGetTheSameToken() {
        let server = SlowTokenServer()
        let clock = VirtualClock()
        let manager = Self.manager(server, clock: clock)
        // The observer runs under the manager's lock, so appending needs no lock of its own.
        nonisolated(unsafe) var reasons: [TokenChangeReason] = []
        manager.observer = { change in reasons.append(change.reason) }
        let values = concurrently(50) { _ in (try? manager.freshAccessToken())?.value }
        #expect(server.tokenCalls == 1)
        #expect(Set(values) == ["access-1"])
        #expect(reasons == [.refresh])
        #expect(manager.generation == 2)
    }

    @Test func aRefusedRefreshLogsOutOnceAndEveryCallerIsTold() {
        let server = SlowTokenServer()
        server.refuse = true
        let clock = VirtualClock()
        let manager = Self.manager(server, clock: clock)
        nonisolated(unsafe) var reasons: [TokenChangeReason] = []
        manager.observer = { reasons.append($0.reason) }
        let errors = concurrently(20) { _ in
            Result { () throws(SDKError) -> AccessToken in try manager.freshAccessToken() }
        }
        #expect(server.tokenCalls == 1)
        #expect(reasons == [.refreshRejected])
        #expect(errors.allSatisfy { result in
            if case .failure(let error) = result { error == .authenticationRequired || error == .noCurrentUser } else { false }
        })
        #expect(manager.accessToken == nil)
    }

    @Test func aLogoutDuringARefreshWins() {
        let server = SlowTokenServer(delay: 200_000)
        let clock = VirtualClock()
        let manager = Self.manager(server, clock: clock)
        let refreshing = DispatchGroup()
        refreshing.enter()
        nonisolated(unsafe) var outcome: Result<AccessToken, SDKError>?
        Thread {
            outcome = Result { () throws(SDKError) -> AccessToken in try manager.freshAccessToken() }
            refreshing.leave()
        }.start()
        usleep(50_000)
        #expect(manager.clear(reason: .logout))
        refreshing.wait()
        #expect(manager.accessToken == nil)
        if case .failure(let error)? = outcome { #expect(error == .authenticationRequired) } else { Issue.record("the refresh must fail") }
    }
}
