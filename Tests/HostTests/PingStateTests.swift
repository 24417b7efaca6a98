import AuthBridgeCore
import Foundation
import Host
import NativeModules
import TestSupport
import Testing

/// What the Ping SDK keeps across an app restart (its keychain: SSO session and OIDC tokens)
/// survives a daemon restart on the same `--state-dir`; clients and journeys are the app's
/// memory and are created again, as JS does on launch.
@Suite struct PingStateTests {
    static let journeyConfig: JSONValue = [
        "serverUrl": "http://localhost:8080/am", "realm": "alpha", "clientId": "ReactNativeOAuthClient",
        "discoveryEndpoint": "http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration",
        "redirectUri": "https://com.example.reactnative.todo/callback", "scopes": ["openid", "profile", "email"],
    ]
    static let oidcConfig: JSONValue = [
        "clientId": "ReactNativeOAuthClient", "redirectUri": "https://com.example.reactnative.todo/callback",
        "scopes": ["openid", "profile", "email"],
        "discoveryEndpoint": "http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration",
    ]
    static let demo: JSONValue = [
        "callbacks": [["type": "NameCallback", "value": "demo"], ["type": "PasswordCallback", "value": "Ch4ng3it!"]]
    ]

    static func app(_ directory: String, _ flavor: Flavor) throws -> ModuleHarness {
        var configuration = HostConfiguration()
        configuration.flavor = flavor
        configuration.seed = 3
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.stateDirectory = directory
        return try ModuleHarness(configuration: configuration)
    }

    /// A launch of the app: a journey client and an OIDC web client, as JS creates them.
    static func launch(_ app: ModuleHarness) throws -> (journey: JSONValue, web: JSONValue) {
        let journey = try app.call("RNPingJourney.configureJourney", journeyConfig)
        let client = try app.call("RNPingOidc.createClient", oidcConfig)
        return (journey, try app.call("RNPingOidc.createWebClient", client))
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func sessionsAndTokensSurviveARestart(flavor: Flavor) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ping-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var first: ModuleHarness? = try Self.app(directory, flavor)
        let (journey, web) = try Self.launch(first!)
        _ = try first!.call("RNPingJourney.start", journey, "Login")
        #expect(try first!.call("RNPingJourney.next", journey, "", Self.demo)["type"] == "SuccessNode")
        let session = try first!.call("RNPingJourney.getSession", journey)
        let sso = try first!.call("RNPingJourney.ssoToken", journey)
        let token = try first!.call("RNPingOidc.token", web)
        first = nil

        do {
            let second = try Self.app(directory, flavor)
            let (journey2, web2) = try Self.launch(second)
            #expect(try second.call("RNPingOidc.hasUser", web2) == true)
            #expect(try second.call("RNPingOidc.token", web2) == token)
            #expect(try second.call("RNPingJourney.ssoToken", journey2) == sso)
            let restored = try second.call("RNPingJourney.getSession", journey2)
            #expect(
                restored["accessToken"] == session["accessToken"] && restored["refreshToken"] == session["refreshToken"]
            )
            #expect(restored["userInfo"]?["preferred_username"] == "demo")
            // The restored session is still the server's: a start of the journey it came from answers it at once.
            #expect(try second.call("RNPingJourney.start", journey2, "Login")["input"]?["tokenId"] == sso["value"])
            // The restored access token is still the server's: user info is fetched, not cached.
            #expect(try second.call("RNPingOidc.userinfo", web2, false)["preferred_username"] == "demo")

            // A logout is saved too: the next launch has no user.
            #expect(try second.call("RNPingJourney.logout", journey2) == true)
        }
        let third = try Self.app(directory, flavor)
        let (journey3, web3) = try Self.launch(third)
        #expect(try third.call("RNPingOidc.hasUser", web3) == false)
        #expect(try third.call("RNPingJourney.getSession", journey3) == .null)
        #expect(try third.call("RNPingJourney.ssoToken", journey3) == .null)
    }
}
