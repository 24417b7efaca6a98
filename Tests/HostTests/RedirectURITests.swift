import AuthBridgeCore
import Host
import NativeModules
import TestSupport
import Testing

/// `--redirect-uri` with the embedded server (HostConfiguration.redirectUris): an app whose own
/// redirect URI is not the default can use it once registered; the native bridge keeps the default.
@Suite struct RedirectURITests {
    static let appURI = "com.example.myapp://oauth2redirect"

    static func app(registering uris: [String]) throws -> ModuleHarness {
        var configuration = HostConfiguration()
        configuration.seed = 3
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.redirectUris = uris
        return try ModuleHarness(configuration: configuration)
    }

    /// An RNPingOidc web client configured with the app's redirect URI.
    static func webClient(_ app: ModuleHarness) throws(BridgeError) -> JSONValue {
        let client = try app.call(
            "RNPingOidc.createClient",
            [
                "clientId": "ReactNativeOAuthClient", "redirectUri": .string(appURI), "scopes": ["openid", "profile"],
                "discoveryEndpoint": "http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration",
            ])
        return try app.call("RNPingOidc.createWebClient", client)
    }

    @Test func anAppsOwnRedirectURIWorksOnceRegistered() throws {
        let registered = try Self.app(registering: [Self.appURI])
        let web = try Self.webClient(registered)
        #expect(try registered.call("RNPingOidc.authorize", web, [:]) == ["type": "success"])
        #expect(try registered.call("RNPingOidc.token", web)["accessToken"]?.stringValue != nil)
        // Exact match: unregistered, or registered with a trailing slash, is AM's refusal.
        for uris in [[], [Self.appURI + "/"]] {
            let app = try Self.app(registering: uris)
            guard
                case .typedRejection(let code, let message, _)? = app.rejection(
                    "RNPingOidc.authorize", try Self.webClient(app), [:])
            else {
                Issue.record("authorize with \(Self.appURI) registering \(uris) was not refused")
                continue
            }
            #expect(code == "OIDC_AUTHORIZE_ERROR")
            #expect(message == "The redirection URI provided does not match a pre-registered value.")
        }
    }

    @Test func theBridgeKeepsTheDefaultRedirectURI() throws {
        let app = try Self.app(registering: [Self.appURI])
        _ = try app.call("start")
        #expect(try app.login()["type"] == "LoginSuccess")
        #expect(
            try app.call("getUserInfo")["name"] == "Demo User", "the code flow with the default redirect URI worked")
        #expect(
            app.host.view.server.clients[0].redirectUris == [
                "https://com.example.reactnative.todo/callback", Self.appURI,
            ])
    }
}
