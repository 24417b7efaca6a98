import Foundation
import IdentityServer
import Testing

@testable import RemoteConfig

/// The apps' endpoint override keys: read from each file kind under its own names, empty ones
/// ignored, and a value that is neither a URL nor a path named with its file and key.
@Suite struct EndpointOverridesTests {
    func plist(_ entries: [String: String]) -> String {
        let keys = entries.sorted { $0.key < $1.key }.map { "<key>\($0.key)</key><string>\($0.value)</string>" }
            .joined()
        return AppConfigFileTests.plist.replacingOccurrences(of: "<dict>", with: "<dict>" + keys)
    }

    func strings(_ entries: [String: String]) -> String {
        let lines = entries.sorted { $0.key < $1.key }.map {
            "<string name=\"\($0.key)\" translatable=\"false\">\($0.value)</string>"
        }
        return AppConfigFileTests.strings.replacingOccurrences(of: "\\'15\\'", with: "15")
            .replacingOccurrences(of: "</resources>", with: lines.joined() + "</resources>")
    }

    func message(_ text: String, file: String) -> String? {
        do {
            _ = try AppConfigFile.settings(text, file: file)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func plistKeys() throws {
        let settings = try AppConfigFile.settings(
            plist([
                "forgerock_authenticate_endpoint": "/json/realms/alpha/authenticate",
                "forgerock_authorize_endpoint": "https://login.example.com/am/oauth2/alpha/authorize",
                "forgerock_token_endpoint": "/oauth2/realms/alpha/access_token",
                "forgerock_revoke_endpoint": "/oauth2/realms/alpha/token/revoke",
                "forgerock_userinfo_endpoint": "/oauth2/realms/alpha/userinfo",
                "forgerock_session_endpoint": "/json/realms/alpha/sessions",
                "forgerock_endsession_endpoint": "/oauth2/realms/alpha/connect/endSession",
            ]), file: "FRAuthConfig.plist")
        #expect(settings.endpoints.count == 7)
        #expect(settings.endpoints[.authorize] == "https://login.example.com/am/oauth2/alpha/authorize")
        #expect(settings.endpoints[.endSession] == "/oauth2/realms/alpha/connect/endSession")
        #expect(settings.endpoints[.userinfo] == "/oauth2/realms/alpha/userinfo")
    }

    @Test func androidShipsThemEmptyAndKeepsTheDeprecatedLogoutKey() throws {
        let settings = try AppConfigFile.settings(
            strings(["forgerock_token_endpoint": "", "forgerock_logout_endpoint": "json/realms/alpha/sessions"]) + "",
            file: "strings.xml")
        #expect(settings.endpoints == [.session: "json/realms/alpha/sessions"], "a path without / is Android's to join")
        let both = try AppConfigFile.settings(
            strings(["forgerock_session_endpoint": "/custom/sessions", "forgerock_logout_endpoint": "/old/sessions"]),
            file: "strings.xml")
        #expect(both.endpoints == [.session: "/custom/sessions"])
        #expect(
            try AppConfigFile.settings(
                AppConfigFileTests.strings.replacingOccurrences(of: "\\'15\\'", with: "15"), file: "s"
            ).endpoints == [:])
    }

    @Test func frOptionsNames() throws {
        let json =
            #"{"url": "http://127.0.0.1:8080/am", "realm": "alpha", "oauthClientId": "c", "oauthRedirectUri": "r:/cb", "oauthScope": "openid", "tokenEndpoint": "oauth2/x/access_token", "endSessionEndpoint": "http://other:9/end"}"#
        let settings = try AppConfigFile.settings(json, file: "options.json")
        #expect(settings.endpoints == [.token: "oauth2/x/access_token", .endSession: "http://other:9/end"])
        #expect(
            message(json.replacingOccurrences(of: "http://other:9/end", with: "ftp://other/end"), file: "options.json")
                == "options.json: endSessionEndpoint must be an http(s) URL or a path under forgerock_url such as /oauth2/realms/alpha/access_token, got ftp://other/end"
        )
        #expect(
            message(json.replacingOccurrences(of: "\"oauth2/x/access_token\"", with: "7"), file: "options.json")
                == "options.json: tokenEndpoint must be a string, got integer")
    }

    @Test func malformedValuesAreNamed() {
        #expect(
            message(
                plist(["forgerock_token_endpoint": "oauth2/realms/alpha/access_token"]), file: "ios/FRAuthConfig.plist")
                == "ios/FRAuthConfig.plist: forgerock_token_endpoint must start with / (the iOS SDK appends it to forgerock_url as written), got oauth2/realms/alpha/access_token"
        )
        #expect(
            message(strings(["forgerock_userinfo_endpoint": "https:///userinfo"]), file: "strings.xml")
                == "strings.xml: forgerock_userinfo_endpoint names no host: https:///userinfo")
        #expect(
            message(strings(["forgerock_revoke_endpoint": "/token/ revoke"]), file: "strings.xml")
                == "strings.xml: forgerock_revoke_endpoint must be an http(s) URL or a path under forgerock_url such as /oauth2/realms/alpha/access_token, got /token/ revoke"
        )
        #expect(
            message(
                AppConfigFileTests.plist.replacingOccurrences(
                    of: "<dict>", with: "<dict><key>forgerock_session_endpoint</key><true/>"), file: "p.plist")
                == "p.plist: forgerock_session_endpoint must be a <string>, <integer> or <real>")
    }
}
