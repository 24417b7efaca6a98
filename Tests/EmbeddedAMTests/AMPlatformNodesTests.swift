import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's remaining platform nodes: Create Password, Anonymous User Mapping, Provision Dynamic
/// Account. Each outcome, each re-render, and each bad config refused at load.
struct AMPlatformNodesTests {
    typealias T = AMMoreNodesTests
    typealias Nodes = [(id: String, type: String, connections: JSONObject, config: JSONObject)]

    static func refused(_ nodes: Nodes) -> String? {
        do {
            _ = try AMExports.load([AMExports.tree("T", entry: nodes[0].id, nodes)])
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: Create Password

    /// Create Password, then a Data Store Decision that reads the password it set.
    static let createPassword: Nodes = [
        ("n", "CreatePasswordNode", ["outcome": "check"], ["minPasswordLength": 6]),
        ("check", "DataStoreDecisionNode", ["true": T.success, "false": "marker"], [:]),
    ]

    @Test func createPasswordAsksTwiceAndKeepsThePasswordTransient() throws {
        let h = try T.harness(Self.createPassword)
        let step = T.begin(h).body
        #expect(T.types(step) == ["PasswordCallback", "PasswordCallback"])
        #expect(T.output(step, 0, "prompt") == "Create a password")
        #expect(T.output(step, 1, "prompt") == "Confirm password")
        let done = h.submit(step, ["IDToken1": "Ch4ng3it!", "IDToken2": "Ch4ng3it!"])
        #expect(done.body["tokenId"] != nil, "the Data Store Decision found demo's password in transient state")
        #expect(T.reachedMarker(h.submit(T.begin(h).body, ["IDToken1": "other-pw", "IDToken2": "other-pw"])))
    }

    @Test func createPasswordShowsAgainWithAMsTrailingMessage() throws {
        let h = try T.harness(Self.createPassword)
        let short = h.submit(T.begin(h).body, ["IDToken1": "abc", "IDToken2": "abc"]).body
        #expect(T.types(short) == ["PasswordCallback", "PasswordCallback", "TextOutputCallback"])
        #expect(T.output(short, 2, "message") == "Password must be a minimum of 6 characters")
        #expect(T.output(short, 2, "messageType") == "2")
        let mismatch = h.submit(short, ["IDToken1": "abcdefg", "IDToken2": "abcdefh"]).body
        #expect(T.types(mismatch) == ["PasswordCallback", "PasswordCallback", "TextOutputCallback"])
        #expect(T.output(mismatch, 2, "message") == "Passwords do not match")
        let blank = h.submit(mismatch, ["IDToken1": "   ", "IDToken2": "   "]).body
        #expect(T.types(blank) == ["PasswordCallback", "PasswordCallback"], "blank: asked again, no message")
        #expect(h.submit(blank, ["IDToken1": "Ch4ng3it!", "IDToken2": "Ch4ng3it!"]).body["tokenId"] != nil)
    }

    @Test func createPasswordRefusesABadMinimum() {
        for bad: JSONValue in [-1, "8", 1.5] {
            let reason = Self.refused([("n", "CreatePasswordNode", ["outcome": T.success], ["minPasswordLength": bad])])
            #expect(reason?.contains("minPasswordLength") == true, "\(bad)")
        }
    }

    // MARK: Anonymous User Mapping

    static let anonymous: Nodes = [("n", "AnonymousUserNode", ["outcome": T.success], ["anonymousUserName": "guest"])]

    @Test func anonymousUserSignsInAsTheConfiguredAccount() throws {
        let h = try T.harness(Self.anonymous)
        try h.am.users.add(username: "guest", password: "unused-secret", attributes: [:])
        let reply = T.begin(h, username: "demo")
        let token = try #require(reply.body["tokenId"]?.stringValue)
        #expect(h.am.sessions.find(token)?.username == "guest", "the session is the anonymous account's")
    }

    @Test func anonymousUserFailsWhenTheAccountIsMissing() throws {
        let h = try T.harness(Self.anonymous)
        #expect(T.begin(h).status == 401, "AM: the anonymous account must exist in the realm")
    }

    @Test func anonymousUserRefusesAnEmptyName() {
        let reason = Self.refused([("n", "AnonymousUserNode", ["outcome": T.success], ["anonymousUserName": ""])])
        #expect(reason?.contains("anonymousUserName") == true)
    }

    // MARK: Provision Dynamic Account

    static func provision(
        shared: JSONObject, transient: JSONObject = [:]
    ) -> (h: Harness, action: NodeAction, context: NodeContext) {
        let h = Harness()
        var context = NodeContext.make(h.am, clock: h.clock, shared: shared)
        context.transient = transient
        let action = AM.ProvisionDynamicAccountNode().process(&context)
        return (h, action, context)
    }

    static let userInfo: JSONObject = [
        "userInfo": [
            "attributes": [
                "uid": ["ada.lovelace"], "givenName": ["Ada"], "sn": ["Lovelace"],
                "iplanet-am-user-alias-list": ["google-1234", "google-1234"], "userPassword": ["ignored"],
            ],
            "userNames": ["iplanet-am-user-alias-list": ["google-1234"]],
        ]
    ]

    @Test func provisionCreatesTheAccountFromUserInfoWithTheTransientPassword() throws {
        let run = Self.provision(shared: Self.userInfo, transient: ["password": "Cr3ated!pw"])
        guard case .outcome("outcome") = run.action else {
            Issue.record("\(run.action)")
            return
        }
        #expect(run.context.shared["username"] == "ada.lovelace", "uid names the account")
        let user = try #require(run.h.am.users.verify(username: "ada.lovelace", password: "Cr3ated!pw"))
        #expect(user.attributes["givenName"] == "Ada")
        #expect(user.attributes["iplanet-am-user-alias-list"] == "google-1234", "a set: duplicates go")
        #expect(user.attributes["userPassword"] == nil, "the password is the hash, never an attribute")
    }

    @Test func provisionWithoutUidOrPasswordMakesAUUIDAndARandomPassword() throws {
        let info: JSONObject = ["userInfo": ["attributes": ["mail": ["a@example.com"]], "userNames": [:]]]
        let run = Self.provision(shared: info)
        let name = try #require(run.context.shared["username"]?.stringValue)
        #expect(name.count == 36 && name == name.lowercased(), "a UUID, as DefaultAccountProvider makes one")
        #expect(run.h.am.users.find(username: name)?.attributes["mail"] == "a@example.com")
    }

    @Test func provisionPrefersCollectedObjectAttributes() throws {
        let shared: JSONObject = ["objectAttributes": ["uid": "grace", "mail": "g@example.com"]]
        let run = Self.provision(shared: shared.merging(Self.userInfo), transient: ["password": "pw-123456"])
        #expect(run.context.shared["username"] == "grace")
        #expect(run.h.am.users.find(username: "grace")?.attributes["mail"] == "g@example.com")
    }

    @Test func provisionFailsTheJourneyWhenTheAccountExistsOrNothingDescribesIt() throws {
        let taken: JSONObject = ["userInfo": ["attributes": ["uid": ["demo"]], "userNames": [:]]]
        let exists = Self.provision(shared: taken, transient: ["password": "new-password"])
        guard case .reply(let reply) = exists.action else {
            Issue.record("\(exists.action)")
            return
        }
        #expect(reply.status == 401)
        #expect(exists.h.am.users.verify(username: "demo", password: "Ch4ng3it!") != nil, "left as it was")
        for shared: JSONObject in [
            [:], ["userInfo": ["attributes": ["uid": ["x"]]]],
            ["userInfo": ["attributes": ["uid": "x"], "userNames": [:]]],
        ] {
            guard case .reply(let failed) = Self.provision(shared: shared).action else {
                Issue.record("\(shared) was accepted")
                continue
            }
            #expect(failed.status == 401)
        }
    }

    @Test func provisionRefusesACustomAccountProvider() {
        let reason = Self.refused([
            ("n", "ProvisionDynamicAccountNode", ["outcome": T.success], ["accountProviderClass": "com.example.Mine"])
        ])
        #expect(reason?.contains("accountProviderClass") == true)
    }
}

extension JSONObject {
    fileprivate func merging(_ other: JSONObject) -> JSONObject {
        var merged = self
        for member in other.members { merged[member.key] = member.value }
        return merged
    }
}
