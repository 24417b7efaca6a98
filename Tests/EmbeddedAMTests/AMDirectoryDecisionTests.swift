import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's LDAP Decision on the embedded directory (with AM's password-change page) and the Agent
/// Data Store Decision: every outcome, each page and each refusal on it.
struct AMDirectoryDecisionTests {
    typealias T = AMMoreNodesTests
    typealias Nodes = [(id: String, type: String, connections: JSONObject, config: JSONObject)]

    /// A ChoiceCollector whose prompt names the outcome that led to it.
    static func marker(_ outcome: String) -> (id: String, type: String, connections: JSONObject, config: JSONObject) {
        (
            "m-\(outcome)", "ChoiceCollectorNode", ["a": T.failure, "b": T.failure],
            ["choices": ["a", "b"], "prompt": .string(outcome)]
        )
    }

    static func prompt(_ reply: ServerReply) -> String? { T.output(reply.body, 0, "prompt")?.stringValue }

    /// The reason the journey gives once the marker is answered (every marker leads to failure).
    static func reasonAfter(_ h: Harness, _ marker: ServerReply) -> String? {
        guard h.submit(marker.body, ["IDToken1": 0]).status == 401 else { return nil }
        return h.am.lastFailure?.reason?.code
    }

    /// Username, Password, then `node` with each outcome to its marker (`TRUE` to success).
    static func harness(
        _ type: String, outcomes: [String], success: String, config: JSONObject = [:]
    ) throws -> Harness {
        var connections = JSONObject()
        var markers: Nodes = []
        for outcome in outcomes {
            if outcome == success {
                connections[outcome] = T.success
            } else {
                connections[outcome] = .string("m-\(outcome)")
                markers.append(marker(outcome))
            }
        }
        let nodes: Nodes =
            [
                ("u", "UsernameCollectorNode", ["outcome": "p"], [:]),
                ("p", "PasswordCollectorNode", ["outcome": "n"], [:]),
                ("n", type, connections, config),
            ] + markers
        let h = Harness()
        for journey in try AMExports.load([AMExports.tree("T", entry: "u", nodes)]) { h.am.add(journey: journey) }
        return h
    }

    static func login(_ h: Harness, _ username: String, _ password: String) -> ServerReply {
        let name = h.submit(h.start("T").body, ["IDToken1": .string(username)])
        return h.submit(name.body, ["IDToken1": .string(password)])
    }

    // MARK: LDAP Decision

    static let ldapOutcomes = ["TRUE", "FALSE", "LOCKED", "CANCELLED", "EXPIRED"]

    static func ldap(_ config: JSONObject = [:]) throws -> Harness {
        try harness("LdapDecisionNode", outcomes: ldapOutcomes, success: "TRUE", config: config)
    }

    static func addLee(_ h: Harness, _ attributes: JSONObject = [:]) throws {
        try h.am.users.add(username: "Lee", password: "0ld-Passw0rd", attributes: attributes)
    }

    @Test func ldapTrueFalseLockedExpired() throws {
        let h = try Self.ldap()
        try Self.addLee(h)
        #expect(Self.login(h, "lee", "0ld-Passw0rd").body["tokenId"] != nil)
        #expect(Self.prompt(Self.login(h, "lee", "wrong")) == "FALSE")
        #expect(Self.reasonAfter(h, Self.login(h, "lee", "wrong")) == "wrong_password")
        #expect(Self.prompt(Self.login(h, "nobody", "wrong")) == "FALSE")
        #expect(Self.reasonAfter(h, Self.login(h, "nobody", "wrong")) == "unknown_user")
        h.am.users.update(username: "lee") { $0.lock = DirectoryUser.AccountLock(until: nil) }
        #expect(Self.prompt(Self.login(h, "lee", "0ld-Passw0rd")) == "LOCKED")
        #expect(Self.reasonAfter(h, Self.login(h, "lee", "0ld-Passw0rd")) == "account_locked")
        #expect(Self.prompt(Self.login(h, "lee", "wrong")) == "FALSE", "a wrong password never says locked")
        h.am.users.update(username: "lee") { user in
            user.lock = nil
            user.attributes["passwordExpired"] = true
        }
        #expect(Self.prompt(Self.login(h, "lee", "0ld-Passw0rd")) == "EXPIRED")
        #expect(Self.reasonAfter(h, Self.login(h, "lee", "0ld-Passw0rd")) == "password_expired")
    }

    @Test func ldapResetSendsAMsPasswordChangePage() throws {
        let h = try Self.ldap()
        try Self.addLee(h, ["passwordResetRequired": true])
        let page = Self.login(h, "lee", "0ld-Passw0rd").body
        #expect(
            T.types(page) == [
                "TextOutputCallback", "PasswordCallback", "PasswordCallback", "PasswordCallback",
                "ConfirmationCallback",
            ])
        #expect(T.output(page, 0, "message") == "PASSWORD MUST BE RESET.")
        #expect(T.output(page, 0, "messageType") == "0")
        #expect(T.output(page, 1, "prompt") == "Old Password")
        #expect(T.output(page, 2, "prompt") == "New Password")
        #expect(T.output(page, 3, "prompt") == "Confirm Password")
        #expect(T.output(page, 4, "options") == ["SUBMIT", "CANCEL"])
        #expect(T.output(page, 4, "messageType") == 2)
        #expect(T.output(page, 4, "defaultOption") == 1)
        #expect(Self.prompt(h.submit(page, ["IDToken5": 1])) == "CANCELLED", "cancel after a reset")
    }

    @Test func ldapPasswordChangeRefusalsThenSuccess() throws {
        let h = try Self.ldap(["minimumPasswordLength": 10, "mixedCaseForPasswordChangeMessages": true])
        try Self.addLee(h, ["passwordResetRequired": true])
        var page = Self.login(h, "lee", "0ld-Passw0rd").body
        #expect(T.output(page, 0, "message") == "Password must be reset.", "mixed case kept")
        let refusals: [([String: JSONValue], String)] = [
            (["IDToken2": "0ld-Passw0rd", "IDToken3": "short", "IDToken4": "short"], "New password is too short."),
            (
                ["IDToken2": "0ld-Passw0rd", "IDToken3": "N3w-Passw0rd", "IDToken4": "N3w-Passw0rX"],
                "The password and the confirm password do not match."
            ),
            (
                ["IDToken2": "0ld-Passw0rd", "IDToken3": "0ld-Passw0rd", "IDToken4": "0ld-Passw0rd"],
                "The password must be different. Try again."
            ),
            (
                ["IDToken2": "not-the-old", "IDToken3": "N3w-Passw0rd", "IDToken4": "N3w-Passw0rd"],
                "The password you entered is invalid."
            ),
        ]
        for (answers, message) in refusals {
            var values = answers
            values["IDToken5"] = 0
            page = h.submit(page, values).body
            #expect(T.output(page, 0, "message") == .string(message))
            #expect(T.output(page, 0, "messageType") == "2")
        }
        let done = h.submit(
            page, ["IDToken2": "0ld-Passw0rd", "IDToken3": "N3w-Passw0rd", "IDToken4": "N3w-Passw0rd", "IDToken5": 0])
        #expect(done.body["tokenId"] != nil)
        #expect(
            h.am.users.verify(username: "lee", password: "N3w-Passw0rd")?.attributes["passwordResetRequired"] == nil)
        #expect(Self.login(h, "lee", "N3w-Passw0rd").body["tokenId"] != nil, "no page once changed")
    }

    @Test func ldapGraceLoginsCountDownThenExpire() throws {
        let h = try Self.ldap()
        try Self.addLee(h, ["passwordGraceLogins": 2])
        let first = Self.login(h, "lee", "0ld-Passw0rd").body
        #expect(T.output(first, 0, "message") == "YOUR PASSWORD HAS EXPIRED AND YOU HAVE 2 GRACE LOGINS REMAINING.")
        #expect(h.submit(first, ["IDToken5": 1]).body["tokenId"] != nil, "cancel in grace goes TRUE")
        let last = Self.login(h, "lee", "0ld-Passw0rd").body
        #expect(T.output(last, 4, "options") == ["SUBMIT"], "the last grace login cannot cancel")
        #expect(T.output(last, 4, "defaultOption") == 0)
        #expect(h.submit(last, [:]).body["tokenId"] == nil)
        #expect(Self.prompt(Self.login(h, "lee", "0ld-Passw0rd")) == "EXPIRED", "grace used up")
    }

    @Test func ldapRefusesBadSettings() {
        for (key, value): (String, JSONValue) in [
            ("minimumPasswordLength", "8"), ("mixedCaseForPasswordChangeMessages", "no"), ("primaryServers", "ldap"),
        ] {
            do {
                _ = try Self.ldap([key: value])
                Issue.record("\(key) accepted")
            } catch {
                #expect("\(error)".contains(key))
            }
        }
    }

    // MARK: Agent Data Store Decision

    static func agent() throws -> Harness {
        try harness("AgentDataStoreDecisionNode", outcomes: ["true", "false"], success: "true")
    }

    @Test func agentDecisionChecksTheRealmsAgentsNotItsUsers() throws {
        let h = try Self.agent()
        let reply = Self.login(h, "web-agent", "Ch4ng3it!")
        let token = try #require(reply.body["tokenId"]?.stringValue)
        #expect(h.am.sessions.find(token)?.username == "web-agent", "the agent's session")
        #expect(Self.prompt(Self.login(h, "web-agent", "wrong")) == "false")
        #expect(Self.prompt(Self.login(h, "demo", "Ch4ng3it!")) == "false", "a user is no agent")
    }
}
