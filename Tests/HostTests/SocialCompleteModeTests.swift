import AuthBridgeCore
import Host
import NativeModules
import TestSupport
import Testing

/// `--callbacks complete` on the old bridges: the app's provider SDKs answer the social steps
/// through the same handlers as RNPingExternalIdp (`DeviceAnswers+IdP.swift`). A selection JS
/// leaves empty takes the first provider the bridge can finish (Apple, in name order; on
/// Android Facebook, as Apple's browser result cannot travel), and the IdPCallback is signed in
/// with the emulated provider.
@Suite struct SocialCompleteModeTests {
    static let journeys: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/docs/examples/am-exports/social/SocialLogin.journey.json"
    }()

    static func harness(_ flavor: Flavor, callbacks: CallbackHandling) throws -> ModuleHarness {
        var configuration = HostConfiguration()
        configuration.flavor = flavor
        configuration.seed = 5
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.callbacks = callbacks
        configuration.journeyFiles = [journeys]
        configuration.authServiceName = "SocialLogin"
        return try ModuleHarness(configuration: configuration)
    }

    /// JS sends each step back as it came.
    static func send(_ h: ModuleHarness, _ step: JSONValue) throws -> JSONValue {
        try h.call("next", step)
    }

    @Test func theIOSAppSignsInWithAppleByItself() throws {
        let h = try Self.harness(.reactNativeIOS, callbacks: .complete)
        _ = try h.call("start")
        let select = try h.call("login")
        let idp = try Self.send(h, select)
        #expect(idp.stringValue?.contains("IdPCallback") == true)
        let done = try Self.send(h, idp)
        #expect(done["type"] == "LoginSuccess")
        #expect(h.perform { $0.embedded.users.find(username: "sam.social@privaterelay.appleid.com") } != nil)
    }

    @Test func theAndroidAppSignsInWithFacebookByItselfAsAppleNeedsTheBrowser() throws {
        let h = try Self.harness(.reactNativeAndroid, callbacks: .complete)
        _ = try h.call("start")
        let idp = try Self.send(h, try h.call("login"))
        let text = idp.stringValue ?? JSONWriter().string(idp)
        #expect(text.contains("IdPCallback") && text.contains(#""facebook""#))
        let done = try Self.send(h, idp)
        #expect(done["type"] == "LoginSuccess" || done["tokenId"] != nil, "\(done)")
        #expect(h.perform { $0.embedded.users.find(username: "demo")?.attributes["aliasList"] } != nil)
    }

    @Test func withoutCompleteModeTheEmptySelectionIsLocalAuthentication() throws {
        let h = try Self.harness(.reactNativeIOS, callbacks: .sample)
        _ = try h.call("start")
        let next = try Self.send(h, try h.call("login"))
        #expect(next.stringValue?.contains("NameCallback") == true)
    }
}
