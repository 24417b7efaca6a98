import AuthBridgeCore
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
}
