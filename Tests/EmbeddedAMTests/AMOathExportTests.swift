import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// docs/examples/am-exports/mfa/oath_registration.journey.json, Frodo's public e2e export of an
/// OATH registration tree (rockcarver/frodo-cli test/e2e/exports/all-separate/classic/realm/root/
/// journey/oath_registration.journey.json, re-typed), loaded as `--journeys` loads it, without
/// `--unknown-nodes`, and run end to end: sign in, not registered → register, then the code.
struct AMOathExportTests {
    static func harness() throws -> Harness {
        let h = Harness()
        let loaded = try JourneyImport.load(
            [AMExports.source("mfa/oath_registration")], builtIn: Set(h.am.journeyNames))
        for journey in loaded { h.am.add(journey: journey) }
        return h
    }

    @Test func registersThenSignsInWithTheAppsCodeAndNextTimeGoesStraightToTheCode() throws {
        let h = try Self.harness()
        let credentials: [String: JSONValue] = ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]
        let registration = h.submit(h.start("oath_registration").body, credentials).body
        let scanned = try AMOathTests.Scanned(registration)
        let verifier = h.submit(registration, ["IDToken4": 0]).body
        #expect(AMMoreNodesTests.types(verifier) == ["NameCallback", "ConfirmationCallback"])
        #expect(AMOathTests.signedIn(AMOathTests.verify(h, verifier, code: scanned.totp(h))))
        h.clock.advance(by: 30)
        let again = h.submit(h.start("oath_registration").body, credentials).body
        #expect(AMMoreNodesTests.types(again) == ["NameCallback", "ConfirmationCallback"], "registered now")
        #expect(AMOathTests.verify(h, again, code: "000000").status == 401 || scanned.totp(h) == "000000")
        let third = h.submit(h.start("oath_registration").body, credentials).body
        #expect(AMOathTests.signedIn(AMOathTests.verify(h, third, code: scanned.totp(h))))
    }
}
