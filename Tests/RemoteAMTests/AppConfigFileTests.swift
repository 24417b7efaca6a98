import Foundation
import IdentityServer
import Testing

@testable import RemoteConfig

/// The app's own config files become the same settings; a missing or malformed key is named.
@Suite struct AppConfigFileTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>forgerock_oauth_client_id</key>
            <string>iosclient</string>
            <key>forgerock_oauth_redirect_uri</key>
            <string>org.forgerock.demo://oauth2redirect</string>
            <key>forgerock_oauth_scope</key>
            <string>openid profile email address</string>
            <key>forgerock_oauth_threshold</key>
            <string>60</string>
            <key>forgerock_url</key>
            <string>https://openam-tenant.forgeblocks.com/am/</string>
            <key>forgerock_cookie_name</key>
            <string>5421aeddf91aa20</string>
            <key>forgerock_realm</key>
            <string>alpha</string>
            <key>forgerock_timeout</key>
            <integer>30</integer>
            <key>forgerock_auth_service_name</key>
            <string>Login</string>
            <key>forgerock_enable_cookie</key>
            <true/>
        </dict>
        </plist>
        """

    static let strings = """
        <?xml version="1.0" encoding="utf-8"?>
        <resources>
            <string name="app_name">To Do</string>
            <string name="forgerock_url" translatable="false">https://openam.example.com:8443/openam</string>
            <string name="forgerock_realm">root</string>
            <string name="forgerock_oauth_client_id">AndroidTest</string>
            <string name="forgerock_oauth_redirect_uri">org.forgerock.demo:/oauth2redirect</string>
            <string name="forgerock_oauth_scope">openid profile email address phone</string>
            <string name="forgerock_oauth_threshold">30</string>
            <string name="forgerock_auth_service">Login</string>
            <string name="forgerock_registration_service">Reg &amp; Verify</string>
            <string name="forgerock_timeout">\\'15\\'</string>
        </resources>
        """

    @Test func plist() throws {
        let settings = try AppConfigFile.settings(Self.plist, file: "FRAuthConfig.plist")
        #expect(settings.url == "https://openam-tenant.forgeblocks.com/am")
        #expect(settings.realm == "alpha")
        #expect(settings.realmPath == "realms/root/realms/alpha")
        #expect(settings.cookieName == "5421aeddf91aa20")
        #expect(settings.oauthClientId == "iosclient")
        #expect(settings.oauthRedirectUri == "org.forgerock.demo://oauth2redirect")
        #expect(settings.oauthScope == "openid profile email address")
        #expect(settings.oauthThreshold == 60)
        #expect(settings.timeout == 30)
        #expect(settings.authServiceName == "Login")
        #expect(settings.source == "FRAuthConfig.plist")
    }

    @Test func androidStrings() throws {
        let text = Self.strings.replacingOccurrences(of: "\\'15\\'", with: "15")
        let settings = try AppConfigFile.settings(text, file: "strings.xml")
        #expect(settings.url == "https://openam.example.com:8443/openam")
        #expect(settings.realmPath == "realms/root")
        #expect(settings.cookieName == "iPlanetDirectoryPro")
        #expect(settings.oauthThreshold == 30)
        #expect(settings.timeout == 15)
        // Android's names for the journeys, not iOS's `…_service_name`.
        #expect(settings.authServiceName == "Login")
        #expect(settings.registrationServiceName == "Reg & Verify")
    }

    @Test func frOptionsJSONAsIOSEncodesIt() throws {
        let json =
            #"{"forgerock_url": "https://tenant/am", "forgerock_realm": "alpha", "forgerock_oauth_client_id": "c", "forgerock_oauth_redirect_uri": "r:/cb", "forgerock_oauth_scope": "openid", "forgerock_auth_service_name": "Login"}"#
        let settings = try AppConfigFile.settings(json, file: "options.json")
        #expect(settings.url == "https://tenant/am")
        #expect(settings.oauthClientId == "c")
        #expect(settings.authServiceName == "Login")
    }

    @Test func frOptionsJSON() throws {
        let json =
            #"{"url": "http://127.0.0.1:8080/am", "realm": "alpha", "oauthClientId": "c", "oauthRedirectUri": "r:/cb", "oauthScope": "openid", "timeout": 5}"#
        let settings = try AppConfigFile.settings(json, file: "options.json")
        #expect(settings.timeout == 5)
        #expect(settings.oauthClientId == "c")
        #expect(settings.discoveryURL == nil)
        for (value, message) in [
            ("[5]", "options.json: timeout must be a string or a number, got array"),
            ("null", nil),
        ] {
            let changed = json.replacingOccurrences(of: #""timeout": 5"#, with: #""timeout": \#(value)"#)
            do {
                _ = try AppConfigFile.settings(changed, file: "options.json")
                #expect(message == nil, "\(value)")
            } catch {
                #expect(error.message == message, "\(value)")
            }
        }
        let discovery = json.replacingOccurrences(of: #""timeout": 5"#, with: #""discoveryEndpoint": 7"#)
        let error = #expect(throws: AppConfigFile.Invalid.self) {
            try AppConfigFile.settings(discovery, file: "options.json")
        }
        #expect(error?.message == "options.json: discoveryEndpoint must be a string, got integer")
    }

    @Test func frOptionsDiscoveryEndpoint() throws {
        let discovery = "https://tenant.example.com/am/oauth2/alpha/.well-known/openid-configuration"
        let json =
            #"{"url": "https://tenant.example.com/am", "realm": "alpha", "oauthClientId": "c", "oauthRedirectUri": "r:/cb", "oauthScope": "openid", "discoveryEndpoint": "\#(discovery)"}"#
        #expect(try AppConfigFile.settings(json, file: "options.json").discoveryURL == discovery)
        let relative = json.replacingOccurrences(of: discovery, with: "/am/.well-known/openid-configuration")
        let error = #expect(throws: AppConfigFile.Invalid.self) {
            try AppConfigFile.settings(relative, file: "options.json")
        }
        #expect(error?.message.hasPrefix("options.json: discoveryEndpoint must be an http(s) URL") == true)
        // The plist has no discovery key in the SDKs: one named like FROptions' is not read from it.
        let plist = Self.plist.replacingOccurrences(
            of: "<dict>", with: "<dict><key>discoveryEndpoint</key><string>\(discovery)</string>")
        #expect(try AppConfigFile.settings(plist, file: "FRAuthConfig.plist").discoveryURL == nil)
    }

    @Test func missingKeyIsNamed() {
        let text = Self.plist.replacingOccurrences(of: "<key>forgerock_realm</key>", with: "<key>other</key>")
        let error = #expect(throws: AppConfigFile.Invalid.self) {
            try AppConfigFile.settings(text, file: "ios/FRAuthConfig.plist")
        }
        #expect(error?.message == "ios/FRAuthConfig.plist: forgerock_realm is missing or empty")
    }

    @Test func malformedKeyIsNamed() {
        let error = #expect(throws: AppConfigFile.Invalid.self) {
            try AppConfigFile.settings(Self.strings, file: "strings.xml")
        }
        #expect(error?.message == "strings.xml: forgerock_timeout must be a positive number of seconds, got '15'")
        let badURL = Self.plist.replacingOccurrences(of: "https://openam-tenant.forgeblocks.com/am/", with: "openam")
        let urlError = #expect(throws: AppConfigFile.Invalid.self) { try AppConfigFile.settings(badURL, file: "p") }
        #expect(urlError?.message.hasPrefix("p: forgerock_url must be an http(s) URL") == true)
        #expect(throws: AppConfigFile.Invalid.self) { try AppConfigFile.settings("hello", file: "x.txt") }
    }
}
