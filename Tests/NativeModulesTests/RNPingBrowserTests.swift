import AuthBridgeCore
import Host
import NativeModules
import TestSupport
import Testing

/// RNPingBrowser as `@ping-identity/rn-browser` calls it: configure and reset answer nothing; the
/// emulated browser signs in at AM's authorize page and comes back with the code, and a page it
/// cannot serve is one the user closes.
@Suite struct RNPingBrowserTests {
    static let am = "http://localhost:8080/am/oauth2/realms/root/realms/alpha"
    static let redirect = "https://com.example.reactnative.todo/callback"
    static func authorize(redirect: String = redirect, state: String = "s1") -> JSONValue {
        .string(
            am + "/authorize?client_id=ReactNativeOAuthClient&redirect_uri=" + PercentEncoding.escape(redirect)
                + "&response_type=code&scope=openid&state=" + state
                + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256")
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func authorizeComesBackWithTheCode(flavor: Flavor) throws {
        let app = ModuleHarness(flavor: flavor)
        #expect(try app.call("RNPingBrowser.configure", ["customTabs": ["showTitle": true]]) == .null)
        let result = try app.call("RNPingBrowser.open", Self.authorize(), ["callbackUrlScheme": "https"])
        #expect(result["type"] == "success")
        let url = try #require(result["url"]?.stringValue)
        #expect(url.hasPrefix(Self.redirect + "?code="))
        #expect(PercentEncoding.queryParameters(of: url)["state"] == "s1")
        // Android's launcher waits for the redirect URI itself when JS names one.
        let named = try app.call(
            "RNPingBrowser.open", Self.authorize(),
            ["callbackUrlScheme": "myapp", "redirectUri": .string(Self.redirect)])
        #expect(named["type"] == (flavor == .reactNativeAndroid ? "success" : "cancel"))
        #expect(try app.call("RNPingBrowser.reset") == .null)
    }

    @Test func pagesTheBrowserCannotLeaveAreClosedByTheUser() throws {
        let app = ModuleHarness()
        let cancel: JSONValue = ["type": "cancel"]
        let options: JSONValue = ["callbackUrlScheme": "https"]
        #expect(try app.call("RNPingBrowser.open", "https://example.com/help", options) == cancel)
        #expect(
            try app.call("RNPingBrowser.open", Self.authorize(redirect: "https://evil.example/cb"), options) == cancel)
        // AM redirects, but not to the app: the browser shows that page.
        #expect(try app.call("RNPingBrowser.open", Self.authorize(), ["callbackUrlScheme": "myapp"]) == cancel)
    }

    @Test func launchURLsAndOptionsAreCheckedAsEachPlatformChecksThem() throws {
        let ios = ModuleHarness(flavor: .reactNativeIOS)
        let android = ModuleHarness(flavor: .reactNativeAndroid)
        let options: JSONValue = ["callbackUrlScheme": "https"]
        for app in [ios, android] {
            #expect(
                RNPingOidcTests.code(app.rejection("RNPingBrowser.open", Self.authorize(), [:]))! == (
                    "BROWSER_OPEN_ERROR", "argument_error", "callbackUrlScheme is required"
                ))
            #expect(
                RNPingOidcTests.code(app.rejection("RNPingBrowser.open", "ftp://example.com/f", options))?.2
                    == "Unsupported URL scheme. Only HTTP and HTTPS URLs are supported.")
        }
        #expect(try ios.call("RNPingBrowser.open", "https://user:pw@example.com/", options) == ["type": "cancel"])
        #expect(
            RNPingOidcTests.code(android.rejection("RNPingBrowser.open", "https://user:pw@example.com/", options))?.2
                == "Unsupported URL format. User info is not allowed.")
        #expect(
            RNPingOidcTests.code(android.rejection("RNPingBrowser.open", "https:/no-host", options))?.2
                == "Invalid URL. Provide an absolute HTTP(S) URL with a host.")
        #expect(
            RNPingOidcTests.code(android.rejection("RNPingBrowser.open", "x", ["callbackUrlScheme": "  "]))?.2
                == "callbackUrlScheme is required")
        #expect(throws: BridgeError.self) { try ios.call("RNPingBrowser.configure", "dark") }
    }

    /// A browser logout: AM's end session ends the session of the id token, then sends the browser
    /// to a registered Post Logout Redirect URI (with `state`); an unregistered one is AM's error page.
    @Test func endSessionEndsTheSessionAndFollowsARegisteredPostLogoutURI() throws {
        var configuration = HostConfiguration()
        configuration.flavor = .reactNativeAndroid
        configuration.seed = 5
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.postLogoutRedirectUris = ["myapp://signed-out"]
        let app = try ModuleHarness(configuration: configuration)
        let base = try app.call("RNPingOidc.createClient", RNPingOidcTests.config)
        let web = try app.call("RNPingOidc.createWebClient", base)
        _ = try app.call("RNPingOidc.authorize", web, [:])
        let idToken = try #require(try app.call("RNPingOidc.token", web)["idToken"]?.stringValue)
        let endSession =
            Self.am + "/connect/endSession?id_token_hint=" + idToken + "&post_logout_redirect_uri="
            + PercentEncoding.escape("myapp://signed-out")
        #expect(
            try app.call("RNPingBrowser.open", .string(endSession + "&state=x"), ["callbackUrlScheme": "myapp"])
                == ["type": "success", "url": "myapp://signed-out?state=x"])
        #expect(app.perform { world in world.embedded.sessions.count } == 0)
        let elsewhere =
            Self.am + "/connect/endSession?id_token_hint=" + idToken + "&post_logout_redirect_uri=myapp%3A%2F%2Fother"
        #expect(
            try app.call("RNPingBrowser.open", .string(elsewhere), ["callbackUrlScheme": "myapp"]) == ["type": "cancel"]
        )
    }
}
