import AuthBridgeCore
import NativeModules
import TestSupport
import Testing

/// RNPingStorage as `@ping-identity/rn-storage` calls it (register, then configure, both
/// synchronous), and the storage handles RNPingJourney and RNPingOidc resolve against it.
@Suite struct RNPingStorageTests {
    static let journeyConfig: JSONObject = [
        "serverUrl": "http://localhost:8080/am", "realm": "alpha", "clientId": "ReactNativeOAuthClient",
        "discoveryEndpoint": "http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration",
        "redirectUri": "https://com.example.reactnative.todo/callback", "scopes": ["openid", "profile", "email"],
    ]
    static let demo: JSONValue = [
        "callbacks": [["type": "NameCallback", "value": "demo"], ["type": "PasswordCallback", "value": "Ch4ng3it!"]]
    ]

    static func config(_ extra: JSONObject) -> JSONValue {
        var config = journeyConfig
        for key in extra.keys { config[key] = extra[key] }
        return .object(config)
    }

    static func failure(_ error: BridgeError?) -> (String, String)? {
        switch error {
        case .typedRejection(let code, let message, let userInfo)?:
            #expect(userInfo["type"] == "argument_error")
            return (code, message)
        case .rejection(let code, let message, _)?: return (code, message)
        default: return nil
        }
    }

    @Test func theModuleIsInTheCatalogOnTheReactNativeFlavorsOnly() {
        #expect(
            ModuleHarness(flavor: .reactNativeIOS).host.view.wireNames.contains("RNPingStorage.registerOathStorage"))
        #expect(
            ModuleHarness(flavor: .reactNativeAndroid).host.view.wireNames.contains(
                "RNPingStorage.configurePushStorage"))
        #expect(
            !ModuleHarness(flavor: .flutterIOS).host.view.wireNames.contains("RNPingStorage.registerSessionStorage"))
    }

    @Test func registerAnswersARegistryIdAndConfigureTheConfigAsEachPlatformKeepsIt() throws {
        let ios = ModuleHarness(flavor: .reactNativeIOS)
        let iosId = try ios.call(
            "RNPingStorage.registerSessionStorage", ["loggerId": "l", "cacheable": false, "keyAlias": "k"])
        #expect(iosId.stringValue == iosId.stringValue?.uppercased() && iosId.stringValue?.count == 36)
        #expect(
            try ios.call("RNPingStorage.configureSessionStorage", iosId)
                == ["cacheable": false, "account": "com.pingidentity.rnstorage.storage", "encryptor": true])
        let oath = try ios.call(
            "RNPingStorage.registerOathStorage", ["oathService": "s", "oathRequireBiometrics": true, "account": "a"])
        #expect(
            try ios.call("RNPingStorage.configureOathStorage", oath) == ["service": "s", "requireBiometrics": true])

        let android = ModuleHarness(flavor: .reactNativeAndroid)
        let androidId = try android.call(
            "RNPingStorage.registerOidcStorage", ["fileName": "tokens", "cacheStrategy": "cache", "account": "a"])
        #expect(androidId.stringValue == androidId.stringValue?.lowercased())
        #expect(
            try android.call("RNPingStorage.configureOidcStorage", androidId)
                == ["keyAlias": "com.pingidentity.rnstorage.storage", "fileName": "tokens", "cacheStrategy": "cache"])
        let androidOath = try android.call("RNPingStorage.registerOathStorage", ["fileName": "oath.db"])
        #expect(try android.call("RNPingStorage.configureOathStorage", androidOath) == [:])
    }

    /// Each kind has its own registry: a session id is unknown to configureOidcStorage.
    @Test func anUnknownIdIsTheThrownExceptionOfEachPlatform() throws {
        let ios = ModuleHarness(flavor: .reactNativeIOS)
        let session = try ios.call("RNPingStorage.registerSessionStorage", [:])
        #expect(
            Self.failure(ios.rejection("RNPingStorage.configureOidcStorage", session))!
                == ("NSInvalidArgumentException", "No storage config registered for id=\(session.stringValue!)"))
        #expect(
            Self.failure(ios.rejection("RNPingStorage.configureOathStorage", "x"))!
                == ("NSInvalidArgumentException", "No OATH storage config registered for id=x"))
        let android = ModuleHarness(flavor: .reactNativeAndroid)
        #expect(
            Self.failure(android.rejection("RNPingStorage.configurePushStorage", "x"))!
                == ("IllegalStateException", "No storage config registered for id=x"))
        #expect(
            android.rejection("RNPingStorage.registerSessionStorage", "not a config")
                == .invalidParams(
                    JSONReadError(path: JSONPath("config"), expected: .object, found: .kind(.string)), param: "0"))
    }

    /// iOS's factory resolves the session handle first, Android's the OIDC one.
    @Test func configureJourneyRejectsUnknownHandlesInEachPlatformsOrder() {
        let both = Self.config(["sessionStorageId": "s1", "oidcStorageId": "o1"])
        #expect(
            Self.failure(ModuleHarness(flavor: .reactNativeIOS).rejection("RNPingJourney.configureJourney", both))!
                == ("JOURNEY_INIT_ERROR", "No session storage config registered for id=s1"))
        #expect(
            Self.failure(ModuleHarness(flavor: .reactNativeAndroid).rejection("RNPingJourney.configureJourney", both))!
                == ("JOURNEY_INIT_ERROR", "No OIDC storage config registered for id=o1"))
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func aJourneyWithItsOwnStoragesKeepsItsSessionAndTokensApart(flavor: Flavor) throws {
        let app = ModuleHarness(flavor: flavor)
        let session = try app.call("RNPingStorage.registerSessionStorage", ["account": "own", "fileName": "own"])
        let tokens = try app.call("RNPingStorage.registerOidcStorage", ["account": "own", "fileName": "own"])
        let own = try app.call(
            "RNPingJourney.configureJourney", Self.config(["sessionStorageId": session, "oidcStorageId": tokens]))
        let shared = try app.call("RNPingJourney.configureJourney", Self.config([:]))
        _ = try app.call("RNPingJourney.start", own, "Login")
        #expect(try app.call("RNPingJourney.next", own, "", Self.demo)["type"] == "SuccessNode")
        #expect(try app.call("RNPingJourney.getSession", own)["accessToken"]?.stringValue != nil)
        #expect(try app.call("RNPingJourney.ssoToken", shared) == .null)
        #expect(try app.call("RNPingJourney.getSession", shared) == .null)
        // A second registration naming the same place sees what the first one stored.
        let again = try app.call("RNPingStorage.registerSessionStorage", ["account": "own", "fileName": "own"])
        let reopened = try app.call("RNPingJourney.configureJourney", Self.config(["sessionStorageId": again]))
        #expect(try app.call("RNPingJourney.ssoToken", reopened) == app.call("RNPingJourney.ssoToken", own))
    }

    /// Android's OIDC factory refuses an unknown handle; iOS's falls back to the default storage.
    @Test func createClientWithAnUnknownStorageIdThrowsOnAndroidAndUsesTheDefaultOnIOS() throws {
        var config = Self.journeyConfig
        config["storageId"] = "nope"
        let android = ModuleHarness(flavor: .reactNativeAndroid)
        #expect(
            Self.failure(android.rejection("RNPingOidc.createClient", .object(config)))!
                == ("IllegalArgumentException", "No storage config registered for id=nope"))

        let ios = ModuleHarness(flavor: .reactNativeIOS)
        let journey = try ios.call("RNPingJourney.configureJourney", Self.config([:]))
        _ = try ios.call("RNPingJourney.start", journey, "Login")
        _ = try ios.call("RNPingJourney.next", journey, "", Self.demo)
        let session = try ios.call("RNPingJourney.getSession", journey)
        let fallback = try ios.call(
            "RNPingOidc.createWebClient", try ios.call("RNPingOidc.createClient", .object(config)))
        #expect(try ios.call("RNPingOidc.token", fallback)["accessToken"] == session["accessToken"])
        config["storageId"] = try ios.call("RNPingStorage.registerOidcStorage", ["account": "apart"])
        let apart = try ios.call("RNPingOidc.createWebClient", try ios.call("RNPingOidc.createClient", .object(config)))
        #expect(try ios.call("RNPingOidc.hasUser", apart) == false)
    }
}
