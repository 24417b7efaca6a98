import AuthBridgeCore
import HTTPFace
import HTTPServer
import Host
import IdentityServer
import NativeModules
import TestSupport
import Testing

/// Faults on purpose (docs/faults.md): the plan's counting, and each kind as the bridges, the
/// Ping modules and the HTTP face see it, with everything working again once a fault is used up.
@Suite struct FaultPlanTests {
    static func spec(_ json: String) throws -> FaultSpec {
        try FaultSpec.parse(try JSONParser.parse(json).objectValue!)
    }

    static func refusal(_ json: String) -> EmulatorError? {
        do {
            _ = try spec(json)
            return nil
        } catch let error as EmulatorError {
            return error
        } catch {
            return nil
        }
    }

    @Test func aFaultHitsItsCountOfRequestsThenLeavesThePlan() throws {
        let plan = FaultPlan()
        let fault = plan.add(try Self.spec(#"{"operation":"token","kind":"status","status":503,"count":2}"#))
        #expect(fault.id == "fault-1" && fault.remaining == 2)
        #expect(plan.hit(operation: .authenticate) == nil)
        #expect(plan.hit(operation: .token) == .status(503, message: nil))
        #expect(plan.faults.first?.remaining == 1 && plan.faults.first?.hits == 1)
        #expect(plan.hit(operation: .token) == .status(503, message: nil))
        #expect(plan.faults.isEmpty)
        #expect(plan.hit(operation: .token) == nil)
    }

    @Test func untilClearedHitsEveryRequestAndTheFirstFaultSetHitsFirst() throws {
        let plan = FaultPlan()
        let always = plan.add(try Self.spec(#"{"operation":"authenticate","kind":"drop","untilCleared":true}"#))
        _ = plan.add(try Self.spec(#"{"operation":"authenticate","kind":"status"}"#))
        for _ in 0..<5 { #expect(plan.hit(operation: .authenticate) == .drop) }
        #expect(plan.faults.map(\.hits) == [5, 0])
        #expect(plan.clear(id: always.id)?.map(\.id) == ["fault-1"])
        #expect(plan.hit(operation: .authenticate) == .status(500, message: nil))
        #expect(plan.clear(id: "fault-9") == nil)
        _ = plan.add(try Self.spec(#"{"path":"/am/oauth2/","kind":"timeout","seconds":2}"#))
        #expect(plan.clear(id: nil)?.count == 1 && plan.faults.isEmpty)
    }

    @Test func routesAndPathPrefixesHitOnlyTheHTTPFace() throws {
        let plan = FaultPlan()
        _ = plan.add(try Self.spec(#"{"route":"accessToken","kind":"latency","seconds":0.5}"#))
        _ = plan.add(try Self.spec(#"{"path":"/am/json/","kind":"drop"}"#))
        #expect(plan.hit(operation: .token) == nil)
        #expect(plan.hit(endpoint: .authenticate, path: "/am/json/realms/alpha/authenticate") == .drop)
        #expect(plan.takeEffect() == .drop)
        #expect(plan.hit(endpoint: .accessToken, path: "/am/oauth2/access_token") == .latency(seconds: 0.5))
        #expect(plan.takeEffect() == .delay(0.5))
        #expect(plan.takeEffect() == nil)
    }

    @Test func latenciesOfOneUnitAddUp() throws {
        let plan = FaultPlan()
        _ = plan.add(try Self.spec(#"{"operation":"authorize","kind":"latency","seconds":0.25}"#))
        _ = plan.add(try Self.spec(#"{"operation":"token","kind":"latency","seconds":0.5}"#))
        _ = plan.hit(operation: .authorize)
        _ = plan.hit(operation: .token)
        #expect(plan.takeEffect() == .delay(0.75))
    }

    @Test func aSpecNamingAnUnknownRouteOrOperationIsRefusedListingTheNames() {
        let route = Self.refusal(#"{"route":"token","kind":"drop"}"#)
        #expect(route?.param == "route")
        #expect(
            route?.reason
                == "no route token (routes: authenticate, sessions, serverInfo, authorize, accessToken, userInfo, "
                + "revoke, introspect, endSession, wellKnown, jwks, devices, pushMessage, loginPage)")
        let operation = Self.refusal(#"{"operation":"login","kind":"drop"}"#)
        #expect(operation?.param == "operation")
        #expect(
            operation?.reason
                == "no operation login (operations: authenticate, authorize, token, userInfo, revoke, endSession, "
                + "logoutSession, validateSession, sessionInfo, introspect, jwks, devices, pushMessage, "
                + "pingOneAuthorize, pingOneContinue, pingOneToken, pingOneUserInfo, pingOneRevoke, pingOneSignOff, "
                + "pingOneDiscovery, pingOneIdp)")
    }

    @Test func badSpecsAreRefusedNamingTheMember() {
        let cases: [(String, String)] = [
            (#"{"kind":"drop"}"#, "operation"),
            (#"{"operation":"token","route":"jwks","kind":"drop"}"#, "operation"),
            (#"{"operation":"token"}"#, "kind"),
            (#"{"operation":"token","kind":"explode"}"#, "kind"),
            (#"{"operation":"token","kind":"status","status":200}"#, "status"),
            (#"{"operation":"token","kind":"latency"}"#, "seconds"),
            (#"{"operation":"token","kind":"timeout","seconds":-1}"#, "seconds"),
            (#"{"operation":"token","kind":"timeout","seconds":1e9}"#, "seconds"),
            (#"{"operation":"token","kind":"drop","seconds":1}"#, "seconds"),
            (#"{"operation":"token","kind":"drop","status":500}"#, "status"),
            (#"{"operation":"token","kind":"drop","count":0}"#, "count"),
            (#"{"operation":"token","kind":"drop","count":2,"untilCleared":true}"#, "count"),
            (#"{"operation":"token","kind":"drop","count":"2"}"#, "count"),
            (#"{"path":"am/json","kind":"drop"}"#, "path"),
            (#"{"operation":"token","kind":"drop","times":2}"#, "times"),
        ]
        for (json, param) in cases { #expect(Self.refusal(json)?.param == param, "\(json)") }
    }
}

@Suite struct FaultsSeenByTheAppTests {
    static func fault(_ app: ModuleHarness, _ json: String) throws {
        let spec = try FaultPlanTests.spec(json)
        _ = app.perform { world in world.setFault(spec) }
    }

    /// login() and next() with the demo user, as the sample's JS does.
    static func signIn(_ app: ModuleHarness) throws {
        let step = try app.call("login")
        let filled = ModuleHarness.answer(step.stringValue ?? "", ["demo", "Ch4ng3it!"])
        _ = try app.call("next", filled)
    }

    @Test func eachKindFailsTheBridgesLoginThenItWorksAgain() throws {
        let app = ModuleHarness()
        _ = try app.call("start")
        try Self.fault(app, #"{"operation":"authenticate","kind":"status","status":503}"#)
        #expect(app.rejection("login") == .rejection(code: "Error", message: "Service Unavailable", detail: nil))
        try Self.fault(app, #"{"operation":"authenticate","kind":"drop"}"#)
        #expect(app.rejection("login")?.message == "The network connection was lost.")
        try Self.fault(app, #"{"operation":"authenticate","kind":"timeout","seconds":0}"#)
        #expect(app.rejection("login")?.message == "The request timed out.")
        #expect(app.perform { $0.faults }.isEmpty)
        try Self.signIn(app)
        #expect(try app.call("getAccessToken").stringValue?.contains("Bearer") == true)
    }

    @Test func androidSeesOkHttpsTexts() throws {
        let app = ModuleHarness(flavor: .reactNativeAndroid)
        _ = try app.call("start")
        try Self.fault(app, #"{"operation":"authenticate","kind":"drop"}"#)
        #expect(app.rejection("login")?.message == "unexpected end of stream")
        try Self.fault(app, #"{"operation":"authenticate","kind":"timeout","seconds":0}"#)
        #expect(app.rejection("login")?.message == "timeout")
    }

    @Test func aLatencyFaultAnswersNormallyButLaterWithTheWorldReleased() throws {
        let app = ModuleHarness()
        _ = try app.call("start")
        try Self.fault(app, #"{"operation":"authenticate","kind":"latency","seconds":0.75}"#)
        let invocation = app.perform { world in world.invoke("login", []) }
        guard case .later(let later) = invocation else {
            Issue.record("login answered at once: \(invocation)")
            return
        }
        #expect(later.seconds == 0.75)
        // The world is free meanwhile: another unit runs before the late answer is taken.
        #expect(app.perform { $0.faults }.isEmpty)
        let answer = try app.perform { world in world.settle(later) }.get()
        #expect(answer.stringValue?.contains("NameCallback") == true)
    }

    @Test func aTimeoutOnStdioFailsOnlyAfterItsWait() throws {
        let app = ModuleHarness()
        _ = try app.call("start")
        try Self.fault(app, #"{"operation":"authenticate","kind":"timeout","seconds":5}"#)
        guard case .later(let later) = app.perform({ world in world.invoke("login", []) }) else {
            Issue.record("a timeout failed at once")
            return
        }
        #expect(later.seconds == 5)
        #expect(app.perform { world in world.settle(later) }.failure?.message == "The request timed out.")
    }

    @Test func thePingModulesSeeFaultsThroughTheirOwnNodes() throws {
        let (app, id) = try RNPingJourneyFaultCase.configured()
        try Self.fault(app, #"{"operation":"authenticate","kind":"drop"}"#)
        let dropped = try app.call("RNPingJourney.start", id, "Login")
        #expect(dropped["type"] == "FailureNode" && dropped["message"] == "The network connection was lost.")
        // iOS: a 5xx is a FailureNode (ping-ios Journey/Module/Transform.swift).
        try Self.fault(app, #"{"operation":"authenticate","kind":"status","status":500}"#)
        let failed = try app.call("RNPingJourney.start", id, "Login")
        #expect(failed["type"] == "FailureNode" && failed["message"] == "Request failed with status 500")
        try Self.fault(app, #"{"operation":"authenticate","kind":"status","status":401,"message":"Nope"}"#)
        let refused = try app.call("RNPingJourney.start", id, "Login")
        #expect(refused["type"] == "ErrorNode" && refused["status"] == 401 && refused["message"] == "Nope")
        #expect(try app.call("RNPingJourney.start", id, "Login")["type"] == "ContinueNode")
    }

    @Test func theDaemonKeepsItsStateThroughAFault() throws {
        let app = ModuleHarness()
        _ = try app.call("start")
        try Self.signIn(app)
        let before = try app.call("getAccessToken")
        try Self.fault(app, #"{"operation":"userInfo","kind":"drop"}"#)
        #expect(app.rejection("getUserInfo")?.message == "The network connection was lost.")
        #expect(try app.call("getAccessToken") == before)
        #expect(try app.call("getUserInfo")["email"] == "demo@example.com")
    }
}

/// RNPingJourney configured as the Ping SDK's JS configures it.
enum RNPingJourneyFaultCase {
    static let oidc: JSONValue = [
        "serverUrl": "http://localhost:8080/am", "realm": "alpha", "clientId": "ReactNativeOAuthClient",
        "discoveryEndpoint": "http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration",
        "redirectUri": "https://com.example.reactnative.todo/callback", "scopes": ["openid", "profile", "email"],
    ]

    static func configured() throws -> (ModuleHarness, JSONValue) {
        let app = ModuleHarness()
        return (app, try app.call("RNPingJourney.configureJourney", oidc))
    }
}

@Suite struct FaultsOnTheHTTPFaceTests {
    static let authenticate = HTTPRequest(
        method: "POST", target: "/am/json/realms/root/realms/alpha/authenticate",
        headers: [
            .init("Accept-API-Version", "resource=2.1, protocol=1.0"), .init("Content-Type", "application/json"),
        ],
        body: Array("{}".utf8))
    static let discovery = HTTPRequest(
        method: "GET", target: "/am/oauth2/realms/root/realms/alpha/.well-known/openid-configuration")

    static func host() throws -> Host {
        var configuration = HostConfiguration()
        configuration.seed = 3
        return try Host(configuration: configuration)
    }

    static func fault(_ host: Host, _ json: String) throws {
        let spec = try FaultPlanTests.spec(json)
        _ = try host.perform { world in world.setFault(spec) }.get()
    }

    @Test func aStatusFaultAnswersAMsErrorBodyBeforeTheRouteRuns() throws {
        let host = try Self.host()
        let respond = HTTPFace.handler(host: host, corsOrigins: ["http://app.test"])
        try Self.fault(host, #"{"route":"authenticate","kind":"status","status":500,"message":"boom"}"#)
        var request = Self.authenticate
        request.headers.append(.init("Origin", "http://app.test"))
        let failed = respond(request)
        #expect(failed.status == 500 && failed.delivery == .now)
        #expect(
            try JSONParser.parse(failed.body) == ["code": 500, "reason": "Internal Server Error", "message": "boom"])
        #expect(failed.header("Access-Control-Allow-Origin") == "http://app.test")
        let again = respond(request)
        #expect(again.status == 200)
        #expect(try JSONParser.parse(again.body)["authId"]?.stringValue != nil)
    }

    @Test func dropTimeoutAndLatencyBecomeTheResponsesDelivery() throws {
        let host = try Self.host()
        let respond = HTTPFace.handler(host: host, corsOrigins: [])
        try Self.fault(host, #"{"path":"/am/oauth2/","kind":"drop"}"#)
        try Self.fault(host, #"{"route":"wellKnown","kind":"timeout","seconds":3}"#)
        try Self.fault(host, #"{"route":"wellKnown","kind":"latency","seconds":0.5}"#)
        #expect(respond(Self.discovery).delivery == .drop)
        #expect(respond(Self.discovery).delivery == .silence(seconds: 3))
        let late = respond(Self.discovery)
        #expect(late.delivery == .after(seconds: 0.5) && late.status == 200)
        #expect(respond(Self.discovery).delivery == .now)
    }

    @Test func anOperationFaultHitsTheHTTPFaceToo() throws {
        let host = try Self.host()
        let respond = HTTPFace.handler(host: host, corsOrigins: [])
        try Self.fault(host, #"{"operation":"authenticate","kind":"status","status":401}"#)
        try Self.fault(host, #"{"operation":"authenticate","kind":"timeout","seconds":1}"#)
        let refused = respond(Self.authenticate)
        #expect(refused.status == 401)
        #expect(try JSONParser.parse(refused.body)["reason"] == "Unauthorized")
        #expect(respond(Self.authenticate).delivery == .silence(seconds: 1))
        #expect(respond(Self.authenticate).status == 200)
    }

    @Test func aBrowsersPreflightIsNotHit() throws {
        let host = try Self.host()
        let respond = HTTPFace.handler(host: host, corsOrigins: ["http://app.test"])
        try Self.fault(host, #"{"route":"authenticate","kind":"drop"}"#)
        let preflight = HTTPRequest(
            method: "OPTIONS", target: Self.authenticate.target,
            headers: [.init("Origin", "http://app.test"), .init("Access-Control-Request-Method", "POST")])
        #expect(respond(preflight).delivery == .now)
        #expect(respond(Self.authenticate).delivery == .drop)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension BridgeError {
    /// The rejection's message (both shapes), for tests that read only that.
    fileprivate var message: String {
        switch self {
        case .rejection(_, let message, _), .typedRejection(_, let message, _): return message
        case .invalidParams(let reason, _, _): return reason
        case .notImplemented(let reason): return reason
        }
    }
}
