import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// docs/examples/am-exports/more/MoreNodes.journey.json, the example export of the node types beyond
/// the platform journeys', loaded as `--journeys` loads it and run end to end.
struct AMMoreNodesExampleTests {
    static func harness() throws -> Harness {
        let h = Harness()
        for journey in try JourneyImport.load([AMExports.source("more/MoreNodes")], builtIn: Set(h.am.journeyNames)) {
            h.am.add(journey: journey)
        }
        return h
    }

    static func types(_ step: JSONValue) -> [String] {
        step["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
    }

    static let profile: JSONValue = "{\"identifier\":\"device-1\",\"metadata\":{\"platform\":{\"model\":\"Pixel 8\"}}}"

    @Test func deviceCheckWaitsThenSignsIn() throws {
        let h = try Self.harness()
        let profileStep = h.submit(h.start("DeviceCheck").body, ["IDToken1": "demo"]).body
        #expect(Self.types(profileStep) == ["DeviceProfileCallback"])
        let message = h.submit(profileStep, ["IDToken1": Self.profile]).body
        #expect(Self.types(message) == ["TextOutputCallback", "ConfirmationCallback"])
        let wait = h.submit(message, ["IDToken2": 0]).body
        #expect(Self.types(wait) == ["PollingWaitCallback", "ConfirmationCallback"])
        h.clock.advance(by: 2)
        #expect(h.submit(wait, [:]).body["tokenId"] != nil)
    }

    @Test func deviceCheckFallsBackToThePasswordOrFails() throws {
        let h = try Self.harness()
        let message = h.submit(
            h.submit(h.start("DeviceCheck").body, ["IDToken1": "demo"]).body, ["IDToken1": Self.profile]
        ).body
        let choice = h.submit(message, ["IDToken2": 1]).body
        #expect(Self.types(choice) == ["ChoiceCallback"])
        let password = h.submit(choice, [:]).body
        #expect(Self.types(password) == ["PasswordCallback"], "the default choice is password")
        #expect(h.submit(password, ["IDToken1": "Ch4ng3it!"]).body["tokenId"] != nil)

        let again = h.submit(
            h.submit(h.start("DeviceCheck").body, ["IDToken1": "demo"]).body, ["IDToken1": Self.profile]
        ).body
        let wait = h.submit(again, ["IDToken2": 0]).body
        #expect(h.submit(wait, ["IDToken2": 0]).status == 401, "exit from the wait leads to failure")
    }

    @Test func emailOneTimePasswordSignsInWithTheMailedCode() throws {
        let h = try Self.harness()
        let page = h.start("EmailOneTimePassword").body
        #expect(page["header"] == "Sign In")
        #expect(Self.types(page) == ["NameCallback", "PasswordCallback"])
        let otp = h.submit(page, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body
        #expect(Self.types(otp) == ["PasswordCallback"])
        let code = try #require(h.am.outbox.lastOneTimeCode)
        #expect(code.to == "demo@example.com")
        #expect(h.submit(otp, ["IDToken1": "12345678"]).status == 401, "a wrong code fails")
        let again = h.submit(h.start("EmailOneTimePassword").body, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body
        let fresh = try #require(h.am.outbox.lastOneTimeCode?.code)
        #expect(h.submit(again, ["IDToken1": .string(fresh)]).body["tokenId"] != nil)
    }

    @Test func smsOneTimePasswordNeedsAPhoneNumber() throws {
        let h = try Self.harness()
        let otp = h.submit(h.start("SmsOneTimePassword").body, ["IDToken1": "demo"]).body
        let code = try #require(h.am.outbox.lastOneTimeCode)
        #expect(code.delivery == "sms" && code.code.count == 6 && code.to == "+15555550100")
        #expect(h.submit(otp, ["IDToken1": .string(code.code)]).body["tokenId"] != nil)
        _ = h.am.users.update(username: "demo") { $0.attributes["telephoneNumber"] = nil }
        #expect(
            h.submit(h.start("SmsOneTimePassword").body, ["IDToken1": "demo"]).status == 401,
            "no phone: AM's sender throws")
    }

    @Test func socialOrLocalFallsToTheSignInPageAndSetsTheSuccessUrl() throws {
        let h = try Self.harness()
        let select = h.start("SocialOrLocal").body
        #expect(select["header"] == "Sign In")
        #expect(Self.types(select) == ["SelectIdPCallback"], "no zero-page headers here: false")
        #expect(
            select["callbacks"]?[0]?["output"]?[0]?["value"] == [
                ["provider": "google", "uiConfig": ["buttonDisplayName": "Google"]],
                ["provider": "localAuthentication"],
            ])
        #expect(h.submit(select, ["IDToken1": "google"]).status == 401, "social leads to failure in this tree")
        let page = h.submit(h.start("SocialOrLocal").body, ["IDToken1": "localAuthentication"]).body
        #expect(Self.types(page) == ["NameCallback", "PasswordCallback"])
        let done = h.submit(page, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body
        #expect(done["tokenId"] != nil)
        #expect(done["successUrl"] == "https://app.example.com/welcome")
    }

    @Test func kbaRecoveryVerifiesMailsAndSetsTheCookie() throws {
        let h = try Self.harness()
        #expect(h.submit(h.start("KbaRecovery").body, ["IDToken1": "demo"]).status == 401, "no KBA answers stored")
        let random = SeededRandomSource(seed: 3)
        _ = h.am.users.update(username: "demo") {
            $0.attributes["kbaInfo"] = [
                KbaAnswers.hashed(["question": "What's your favorite color?", "answer": "Blue"], random: random),
                KbaAnswers.hashed(["question": "Who was your first employer?", "answer": "Blue"], random: random),
            ]
        }
        let question = h.submit(h.start("KbaRecovery").body, ["IDToken1": "demo"]).body
        #expect(Self.types(question) == ["PasswordCallback"])
        #expect(h.submit(question, ["IDToken1": "blue"]).body["tokenId"] != nil)
        #expect(h.am.outbox.lastEmail?.template == "recoveryNotice")
        #expect(
            h.submit(h.submit(h.start("KbaRecovery").body, ["IDToken1": "demo"]).body, ["IDToken1": "red"]).status
                == 401)
    }

    @Test func webAuthnLoginRegistersOnFirstUse() throws {
        let h = try Self.harness()
        let sign = ["IDToken1": JSONValue("demo"), "IDToken2": "Ch4ng3it!"]
        // The export's nodes have `asScript: true`: the step is AM's script form.
        let register = h.submit(h.start("WebAuthnLogin").body, sign).body
        #expect(
            register["callbacks"]?[0]?["output"]?[0]?["value"]?.stringValue?.contains("navigator.credentials.create")
                == true,
            "no device: noDevice → registration")
        // Not a real attestation: AM's node cannot read it, the journey fails and nothing is saved,
        // so the next login registers again (WebAuthnVerificationTests signs in with a passkey).
        #expect(h.submit(register, ["IDToken3": "{}::attestation::id"]).status == 401)
        let again = h.submit(h.start("WebAuthnLogin").body, sign).body
        #expect(
            again["callbacks"]?[0]?["output"]?[0]?["value"]?.stringValue?.contains("navigator.credentials.create")
                == true)
        let authenticate = again
        #expect(h.submit(authenticate, ["IDToken3": "ERROR::NotAllowedError:"]).status == 401)
    }
}
