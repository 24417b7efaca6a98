import AuthBridgeCore
import Host
import NativeModules
import TestSupport
import Testing

/// `RNPingExternalIdp.authorizeForDaVinci` and `RNPingProtect.collectForDaVinci` as the SDK's JS
/// calls them beside RNPingDavinci (docs/ping-modules.md): the extension fills a collector of the
/// flow's current form, resolves null, and the next `RNPingDavinci.next` sends it.
@Suite struct RNPingDaVinciExtensionsTests {
    static let social: JSONValue = [
        "name": "social", "start": "choose",
        "nodes": [
            [
                "id": "choose",
                "form": [
                    "name": "Sign on with",
                    "fields": [
                        ["type": "SOCIAL_LOGIN_BUTTON", "key": "google", "label": "Google", "idpType": "GOOGLE"],
                        ["type": "SOCIAL_LOGIN_BUTTON", "key": "apple", "label": "Apple", "idpType": "APPLE"],
                        ["type": "SOCIAL_LOGIN_BUTTON", "key": "github", "label": "GitHub", "idpType": "GITHUB"],
                        ["type": "SOCIAL_LOGIN_BUTTON", "key": "nowhere", "label": "Nowhere", "idpType": "FACEBOOK"],
                    ],
                ],
                "next": ["google": "done", "apple": "done", "github": "done"],
            ],
            [
                "id": "done", "connector": "pingOneAuthenticationConnector",
                "capability": "returnSuccessResponseRedirect",
            ],
        ],
    ]

    static let risk: JSONValue = [
        "name": "risk", "start": "signals",
        "nodes": [
            [
                "id": "signals",
                "form": [
                    "name": "Signals",
                    "fields": [
                        ["type": "PROTECT", "key": "riskSignals", "behavioralDataCollection": false],
                        ["type": "SUBMIT_BUTTON", "key": "GO", "label": "Go"],
                    ],
                ],
                "next": ["GO": "seen"],
            ],
            [
                "id": "seen",
                "form": ["name": "Seen", "fields": [["type": "TEXT", "key": "riskSignals", "label": "What came"]]],
            ],
        ],
    ]

    static let config = RNPingDavinciTests.config.objectValue!

    /// A DaVinci client at the flow's first form, on a harness with the flow loaded.
    static func started(_ flavor: Flavor, flow: JSONValue, name: String) throws -> (ModuleHarness, JSONValue, JSONValue)
    {
        let app = ModuleHarness(flavor: flavor)
        _ = try app.perform { world in Result { () throws(EmulatorError) in try world.loadDavinciFlows(flow) } }.get()
        var named = config
        named["acrValues"] = .string(name)
        let id = try app.call("RNPingDavinci.configureDaVinci", .object(named))
        return (app, id, try app.call("RNPingDavinci.start", id))
    }

    static let callConfig: JSONValue = ["redirectUri": ""]

    static func rejected(_ error: BridgeError?) -> (String, String, String)? { RNPingJourneyTests.rejected(error) }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func aGoogleButtonSignsInNativelyAndNextSendsTheResumeRequest(_ flavor: Flavor) throws {
        let (app, id, form) = try Self.started(flavor, flow: Self.social, name: "social")
        #expect(form["collectors"]?.arrayValue?.count == 4)
        #expect(try app.call("RNPingExternalIdp.authorizeForDaVinci", id, ["index": 0], Self.callConfig) == .null)
        let success = try app.call("RNPingDavinci.next", id, [:])
        #expect(success["type"] == "SuccessNode")
        #expect(try app.call("RNPingDavinci.userinfo", id)["preferred_username"] == "sam.social@gmail.com")
    }

    /// Apple is native on iOS; Android takes it through the browser (a `continueToken` posted as
    /// a bearer token to the form's `_links.continue`); the same user either way.
    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func appleIsNativeOnIOSAndABrowserOnAndroid(_ flavor: Flavor) throws {
        let (app, id, _) = try Self.started(flavor, flow: Self.social, name: "social")
        #expect(try app.call("RNPingExternalIdp.authorizeForDaVinci", id, ["index": 1.9], Self.callConfig) == .null)
        #expect(try app.call("RNPingDavinci.next", id, [:])["type"] == "SuccessNode")
        #expect(try app.call("RNPingDavinci.userinfo", id)["sub"]?.stringValue?.isEmpty == false)
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func failuresRejectAsEachPlatformMapsThem(_ flavor: Flavor) throws {
        let ios = flavor == .reactNativeIOS
        let (app, id, _) = try Self.started(flavor, flow: Self.social, name: "social")
        let dv = id.stringValue!
        func reject(_ davinciId: JSONValue, _ index: JSONValue) -> (String, String, String)? {
            Self.rejected(
                app.rejection("RNPingExternalIdp.authorizeForDaVinci", davinciId, ["index": index], Self.callConfig))
        }
        #expect(
            reject(" ", 0)!
                == (
                    "EXTERNAL_IDP_CALLBACK_NOT_FOUND", "argument_error",
                    "DaVinci id must not be empty for external IdP authorization."
                ))
        #expect(
            reject("nope", 2)!
                == (
                    "EXTERNAL_IDP_CALLBACK_NOT_FOUND", "state_error",
                    ios
                        ? "No active DaVinci collectors found for id nope."
                        : "No active IdP collector found for DaVinci nope at index 2."
                ))
        #expect(
            reject(id, 4)!
                == (
                    "EXTERNAL_IDP_CALLBACK_NOT_FOUND", "state_error",
                    "No active IdP collector found for DaVinci \(dv) at index 4."
                ))
        // No handler for GitHub: the browser, which the emulated PingOne does not send back.
        #expect(
            reject(id, 2)!
                == (ios
                    ? (
                        "EXTERNAL_IDP_CANCELLED", "auth_error",
                        "The operation couldn’t be completed. (PingExternalIdP.IdpExceptions error 3.)"
                    )
                    : ("EXTERNAL_IDP_CANCELLED", "internal_error", "Identity Provider authentication was canceled")))
        // A button that leads nowhere: the link's fetch fails.
        let nowhere = try #require(reject(id, 3))
        #expect(nowhere.0 == (ios ? "EXTERNAL_IDP_UNSUPPORTED_PROVIDER" : "EXTERNAL_IDP_AUTHORIZE_ERROR"))
        if ios {
            #expect(nowhere.2 == "The operation couldn’t be completed. (PingExternalIdP.IdpExceptions error 0.)")
        }
        // None of that set a resume request: next submits the form, which presses no button.
        #expect(try app.call("RNPingDavinci.next", id, [:])["type"] != "SuccessNode")
    }

    /// Without a form (before `start`, after `dispose`) there are no collectors.
    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func aClientAtNoFormHasNoCollectors(_ flavor: Flavor) throws {
        let app = ModuleHarness(flavor: flavor)
        let id = try app.call("RNPingDavinci.configureDaVinci", .object(Self.config))
        let idp = Self.rejected(app.rejection("RNPingExternalIdp.authorizeForDaVinci", id, [:], Self.callConfig))
        #expect(idp?.0 == "EXTERNAL_IDP_CALLBACK_NOT_FOUND" && idp?.1 == "state_error")
        let protect = Self.rejected(app.rejection("RNPingProtect.collectForDaVinci", id, [:], [:]))
        #expect(protect?.0 == "PROTECT_COLLECTOR_NOT_FOUND" && protect?.1 == "state_error")
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func protectSignalsAreTheCollectorsValueWhichTheFlowReceives(_ flavor: Flavor) throws {
        let (app, id, form) = try Self.started(flavor, flow: Self.risk, name: "risk")
        #expect(form["collectors"]?.arrayValue?.first?["type"] == "PROTECT")
        #expect(try app.call("RNPingProtect.initialize", ["envId": "env-1"], [:]) == .null)
        #expect(try app.call("RNPingProtect.collectForDaVinci", id, [:], [:]) == .null)
        let seen = try app.call("RNPingDavinci.next", id, ["collectors": [["key": "GO", "value": "GO"]]])
        let value = try #require(
            seen["collectors"]?.arrayValue?.first { $0["key"] == "riskSignals" }?["value"]?.stringValue)
        let json = try JSONParser.parse(try #require(Base64URL.decode(value)))
        #expect(json["envId"] == "env-1" && json["behavioralDataCollection"] == false)
        #expect(json["platform"] == .string(flavor == .reactNativeIOS ? "ios" : "android"))
        // The sign-on form has no Protect field.
        let other = try app.call("RNPingDavinci.configureDaVinci", .object(Self.config))
        _ = try app.call("RNPingDavinci.start", other)
        #expect(
            Self.rejected(app.rejection("RNPingProtect.collectForDaVinci", other, [:], [:]))!
                == (
                    "PROTECT_COLLECTOR_NOT_FOUND", "state_error",
                    "No active Protect collector found for DaVinci \(other.stringValue!) at index 0."
                ))
    }
}
