import AuthBridgeCore
import HTTPFace
import HTTPServer
import Host
import IdentityServer
import NativeModules
import TestSupport
import Testing

/// Faults on the PingOne seam (docs/faults.md, "PingOne"): RNPingDavinci's start and next see each
/// kind as the platform's DaVinci module shows a failed request, and the HTTP face's PingOne
/// routes fail as AM's do; everything works again once a fault is used up.
@Suite struct PingOneFaultTests {
    static let environment = "8e1a4b2c-7d3f-4e6a-9b5c-1f2d3e4a5b6c"

    static func fault(_ app: ModuleHarness, _ json: String) throws {
        let spec = try FaultPlanTests.spec(json)
        _ = app.perform { world in world.setFault(spec) }
    }

    /// The platform's transport texts, as `FaultingServer` gives them.
    static func texts(_ flavor: Flavor) -> (drop: String, timeout: String) {
        flavor == .reactNativeIOS
            ? ("The network connection was lost.", "The request timed out.") : ("unexpected end of stream", "timeout")
    }

    @Test func theOperationsAreNamedAndListedWithTheIdentityServers() throws {
        #expect(
            try FaultPlanTests.spec(#"{"operation":"pingOneContinue","kind":"drop"}"#).target == .pingOne(.continue))
        let plan = FaultPlan()
        let fault = plan.add(try FaultPlanTests.spec(#"{"operation":"pingOneToken","kind":"status","status":503}"#))
        #expect(fault.json["operation"] == "pingOneToken")
        #expect(plan.hit(operation: .token) == nil)
        #expect(plan.hit(endpoint: .accessToken, path: "/am/oauth2/access_token") == nil)
        #expect(plan.hit(pingOne: .token) == .status(503, message: nil))
        #expect(
            FaultPlanTests.refusal(#"{"operation":"davinci","kind":"drop"}"#)?.reason.hasSuffix(
                "pushMessage, pingOneAuthorize, pingOneContinue, pingOneToken, pingOneUserInfo, pingOneRevoke, "
                    + "pingOneSignOff, pingOneDiscovery, pingOneIdp)") == true)
    }

    @Test func requestsAreNamedByMethodAndPath() {
        func operation(_ method: String, _ path: String) -> PingOneOperation? {
            PingOneOperation(PingOneRequest(method: method, path: path), environmentId: Self.environment)
        }
        let env = "/\(Self.environment)"
        #expect(operation("GET", "\(env)/as/authorize") == .authorize)
        #expect(operation("POST", "\(env)/davinci/connections/abc/capabilities/customHTMLTemplate") == .continue)
        #expect(operation("POST", "\(env)/as/token") == .token)
        #expect(operation("GET", "\(env)/as/.well-known/openid-configuration") == .discovery)
        #expect(operation("GET", "\(env)/as/token") == nil)
        #expect(operation("GET", "/other/as/authorize") == nil)
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func startAndNextSeeEachKindAsTheirPlatformsDaVinciModuleShowsIt(flavor: Flavor) throws {
        let (app, id) = try DavinciCase.configured(flavor)
        let texts = Self.texts(flavor)
        try Self.fault(app, #"{"operation":"pingOneAuthorize","kind":"drop"}"#)
        #expect(
            try app.call("RNPingDavinci.start", id)
                == .object(["type": "FailureNode", "message": .string(texts.drop), "cause": .string(texts.drop)]))
        try Self.fault(app, #"{"operation":"pingOneAuthorize","kind":"timeout","seconds":0}"#)
        #expect(try app.call("RNPingDavinci.start", id)["message"] == .string(texts.timeout))
        #expect(try app.call("RNPingDavinci.start", id)["type"] == "ContinueNode")

        // A 5xx is a FailureNode: iOS shows Foundation's text for the SDK's ApiError and the
        // status, Android the body (ping-ios `Transform.swift`, ping-android `Transform.kt`).
        try Self.fault(app, #"{"operation":"pingOneContinue","kind":"status","status":503}"#)
        let failed = try app.call("RNPingDavinci.next", id, DavinciCase.signOn())
        #expect(failed["type"] == "FailureNode")
        switch flavor {
        case .reactNativeIOS:
            #expect(
                failed["status"] == 503
                    && failed["message"] == "The operation couldn’t be completed. (PingDavinci.ApiError error 0.)")
        default:
            #expect(
                failed["status"] == nil
                    && failed["message"] == #"{"code":"UNEXPECTED_SERVER_ERROR","message":"Service Unavailable"}"#)
        }
        // A 4xx is an ErrorNode with PingOne's message.
        #expect(try app.call("RNPingDavinci.start", id)["type"] == "ContinueNode")
        try Self.fault(app, #"{"operation":"pingOneContinue","kind":"status","status":401,"message":"Nope"}"#)
        let refused = try app.call("RNPingDavinci.next", id, DavinciCase.signOn())
        #expect(refused["type"] == "ErrorNode" && refused["message"] == "Nope")
        #expect(refused["input"] == ["code": "ACCESS_FAILED", "message": "Nope"])

        // A latency fault answers the same, later, with the world released meanwhile.
        #expect(try app.call("RNPingDavinci.start", id)["type"] == "ContinueNode")
        try Self.fault(app, #"{"operation":"pingOneContinue","kind":"latency","seconds":0.5}"#)
        let invocation = app.perform { world in world.invoke("RNPingDavinci.next", [id, DavinciCase.signOn()]) }
        guard case .later(let later) = invocation else {
            Issue.record("next answered at once: \(invocation)")
            return
        }
        #expect(later.seconds == 0.5 && app.perform { $0.faults }.isEmpty)
        #expect(try app.perform { world in world.settle(later) }.get()["type"] == "SuccessNode")
        #expect(try app.call("RNPingDavinci.getSession", id)["accessToken"]?.stringValue != nil)
    }

    @Test func aFaultOnTheTokenEndpointFailsTheSessionNotTheFlow() throws {
        let (app, id) = try DavinciCase.configured(.reactNativeIOS)
        _ = try app.call("RNPingDavinci.start", id)
        #expect(try app.call("RNPingDavinci.next", id, DavinciCase.signOn())["type"] == "SuccessNode")
        try Self.fault(app, #"{"operation":"pingOneToken","kind":"drop"}"#)
        let rejected = app.rejection("RNPingDavinci.getSession", id)
        guard case .typedRejection(let code, let message, _)? = rejected else {
            Issue.record("getSession did not reject: \(String(describing: rejected))")
            return
        }
        #expect(code == "DAVINCI_SESSION_ERROR" && message == "The network connection was lost.")
    }

    static let discovery = HTTPRequest(
        method: "GET", target: "/\(environment)/as/.well-known/openid-configuration",
        headers: [.init("Origin", "http://app.test")])

    @Test func theHTTPFacesPingOneRoutesFailByOperationAndByPath() throws {
        let host = try FaultsOnTheHTTPFaceTests.host()
        let respond = HTTPFace.handler(host: host, corsOrigins: ["http://app.test"])
        try FaultsOnTheHTTPFaceTests.fault(
            host, #"{"operation":"pingOneDiscovery","kind":"status","status":503,"message":"down"}"#)
        try FaultsOnTheHTTPFaceTests.fault(host, #"{"operation":"pingOneDiscovery","kind":"timeout","seconds":2}"#)
        try FaultsOnTheHTTPFaceTests.fault(host, #"{"operation":"pingOneDiscovery","kind":"latency","seconds":0.5}"#)
        let failed = respond(Self.discovery)
        #expect(failed.status == 503 && failed.delivery == .now)
        #expect(try JSONParser.parse(failed.body) == ["code": "UNEXPECTED_SERVER_ERROR", "message": "down"])
        #expect(failed.header("Access-Control-Allow-Origin") == "http://app.test")
        #expect(respond(Self.discovery).delivery == .silence(seconds: 2))
        let late = respond(Self.discovery)
        #expect(late.status == 200 && late.delivery == .after(seconds: 0.5))
        // A path fault is the HTTP face's: it hits before PingOne sees the request.
        try FaultsOnTheHTTPFaceTests.fault(host, #"{"path":"/\#(Self.environment)/as/","kind":"drop"}"#)
        #expect(respond(Self.discovery).delivery == .drop)
        let fine = respond(Self.discovery)
        let issuer = try JSONParser.parse(fine.body)["issuer"]
        #expect(fine.delivery == .now && issuer != nil)
    }
}

/// RNPingDavinci configured as the SDK's JS configures it, on the built-in sign-on flow.
enum DavinciCase {
    static let config: JSONValue = [
        "discoveryEndpoint": .string(
            "http://localhost:8080/\(PingOneFaultTests.environment)/as/.well-known/openid-configuration"),
        "clientId": "ReactNativeOAuthClient", "redirectUri": "https://com.example.reactnative.todo/callback",
        "scopes": ["openid", "profile"],
    ]

    static func configured(_ flavor: Flavor) throws -> (ModuleHarness, JSONValue) {
        let app = ModuleHarness(flavor: flavor)
        return (app, try app.call("RNPingDavinci.configureDaVinci", config))
    }

    static func signOn() -> JSONValue {
        [
            "collectors": [
                ["key": "username", "value": "demo"], ["key": "password", "value": "Ch4ng3it!"],
                ["key": "SIGNON", "value": "SIGNON"],
            ]
        ]
    }
}
