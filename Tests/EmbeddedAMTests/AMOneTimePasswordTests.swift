import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's one-time password nodes: the generator, the e-mail and SMS senders (the code reaches
/// the outbox, as `emulator.lastOneTimeCode` reads it), and the collector decision.
struct AMOneTimePasswordTests {
    typealias T = AMMoreNodesTests

    static func nodes(
        sender: String, expiry: Int = 5
    ) -> [(id: String, type: String, connections: JSONObject, config: JSONObject)] {
        [
            ("n", "OneTimePasswordGeneratorNode", ["outcome": "send"], ["length": 8]),
            (
                "send", sender, ["outcome": "collect"],
                ["emailAttribute": "mail", "fromEmailAddress": "admin@example.com", "hostName": "mail.example.com"]
            ),
            (
                "collect", "OneTimePasswordCollectorDecisionNode", ["true": T.success, "false": "marker"],
                ["passwordExpiryTime": .int(Int64(expiry))]
            ),
        ]
    }

    @Test func theEmailedCodeSignsIn() throws {
        let h = try T.harness(Self.nodes(sender: "OneTimePasswordSmtpSenderNode"))
        let step = T.begin(h).body
        #expect(T.types(step) == ["PasswordCallback"])
        #expect(T.output(step, 0, "prompt") == "One Time Password")
        let sent = try #require(h.am.outbox.lastOneTimeCode)
        #expect(sent.code.count == 8 && sent.code.allSatisfy(\.isNumber))
        #expect(sent.delivery == "email")
        #expect(sent.to == "demo@example.com")
        #expect(sent.username == "demo")
        #expect(sent.journey == "T")
        #expect(h.submit(step, ["IDToken1": .string(sent.code)]).body["tokenId"] != nil)
    }

    @Test func aWrongEmptyOrExpiredCodeIsFalse() throws {
        let h = try T.harness(Self.nodes(sender: "OneTimePasswordSmtpSenderNode", expiry: 1))
        #expect(T.reachedMarker(h.submit(T.begin(h).body, ["IDToken1": "00000000"])))
        #expect(T.reachedMarker(h.submit(T.begin(h).body, ["IDToken1": ""])))
        let step = T.begin(h).body
        let code = try #require(h.am.outbox.lastOneTimeCode?.code)
        h.clock.advance(by: 61)
        #expect(T.reachedMarker(h.submit(step, ["IDToken1": .string(code)])), "older than passwordExpiryTime")
    }

    @Test func theSmsSenderUsesThePhoneAttribute() throws {
        let h = try T.harness(Self.nodes(sender: "OneTimePasswordSmsSenderNode"))
        _ = h.am.users.update(username: "demo") { $0.attributes["telephoneNumber"] = nil }
        #expect(T.begin(h).status == 401, "no telephoneNumber: AM's sender throws")
        _ = h.am.users.update(username: "demo") { $0.attributes["telephoneNumber"] = "+15551234567" }
        let step = T.begin(h).body
        let sent = try #require(h.am.outbox.lastOneTimeCode)
        #expect(sent.delivery == "sms")
        #expect(sent.to == "+15551234567")
        #expect(h.submit(step, ["IDToken1": .string(sent.code)]).body["tokenId"] != nil)
    }

    @Test func aSenderWithoutAUserOrCodeFails() throws {
        let h = try T.harness(Self.nodes(sender: "OneTimePasswordSmtpSenderNode"))
        #expect(T.begin(h, username: "nobody").status == 401)
        #expect(h.am.outbox.lastOneTimeCode == nil)
        let noCode = try T.harness([
            ("n", "OneTimePasswordSmtpSenderNode", ["outcome": T.success], [:])
        ])
        #expect(T.begin(noCode).status == 401, "nothing generated before the sender")
    }

    @Test func theGeneratorsLengthIsChecked() {
        do {
            _ = try AMExports.load([
                AMExports.tree(
                    "T", entry: "n", [("n", "OneTimePasswordGeneratorNode", ["outcome": T.success], ["length": 3])])
            ])
            Issue.record("loaded")
        } catch {
            #expect(
                error.description.contains(
                    "node \"n\" (OneTimePasswordGeneratorNode): \"length\" must be an integer from 6 to 32"))
        }
    }
}
