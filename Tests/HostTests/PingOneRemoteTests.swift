import AuthBridgeCore
import EmbeddedAM
import HTTPFace
import HTTPServer
import Host
import IdentityServer
import Testing

/// Beside a real tenant (`server.kind` remote) the PingOne routes serve nothing of the idle
/// embedded server (docs/davinci.md, "Remote mode"): PingOne's 404, saying why.
@Suite struct PingOneRemoteTests {
    static let environment = "8e1a4b2c-7d3f-4e6a-9b5c-1f2d3e4a5b6c"

    static func remoteHost() throws -> Host {
        var configuration = HostConfiguration()
        configuration.seed = 3
        configuration.remote = RemoteServerSettings(
            url: "https://tenant.example.com/am", realm: "alpha", oauthClientId: "ReactNativeOAuthClient",
            oauthRedirectUri: "https://com.example.reactnative.todo/callback")
        // The tenant: another embedded server, which the PingOne routes must not stand in for either.
        return try Host(configuration: configuration) { _ in
            EmbeddedAM(config: EmbeddedAMConfig(), clock: SystemClock(), random: SeededRandomSource(seed: 9))
        }
    }

    @Test(arguments: [
        "/as/.well-known/openid-configuration",
        "/as/authorize?response_mode=pi.flow&client_id=ReactNativeOAuthClient&response_type=code"
            + "&redirect_uri=https%3A%2F%2Fcom.example.reactnative.todo%2Fcallback&scope=openid",
    ])
    func everyPingOneRouteIsANotFoundNamingRemoteMode(route: String) throws {
        let respond = HTTPFace.handler(host: try Self.remoteHost(), corsOrigins: ["http://app.test"])
        let response = respond(
            HTTPRequest(
                method: "GET", target: "/\(Self.environment)\(route)", headers: [.init("Origin", "http://app.test")]))
        #expect(response.status == 404)
        #expect(
            try JSONParser.parse(response.body) == [
                "code": "NOT_FOUND",
                "message": .string(
                    "PingOne is emulated only with the embedded server: server.kind is remote "
                        + "(https://tenant.example.com/am); send DaVinci requests to the PingOne environment itself"),
            ])
        #expect(response.header("Access-Control-Allow-Origin") == "http://app.test")
    }

    @Test func theEmbeddedServerServesThem() throws {
        var configuration = HostConfiguration()
        configuration.seed = 3
        let respond = HTTPFace.handler(host: try Host(configuration: configuration), corsOrigins: [])
        let response = respond(
            HTTPRequest(method: "GET", target: "/\(Self.environment)/as/.well-known/openid-configuration"))
        #expect(response.status == 200)
    }
}
