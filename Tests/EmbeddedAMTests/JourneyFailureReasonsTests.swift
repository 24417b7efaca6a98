import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// The reasons nodes and the engine give beyond the password check (`emulator.lastFailure`):
/// request in, the failure's reason out, never a value the user typed.
@Suite struct JourneyFailureReasonsTests {
    typealias T = AMMoreNodesTests
    typealias Node = (id: String, type: String, connections: JSONObject, config: JSONObject)

    static func reason(_ h: Harness) -> JourneyFailure.Reason? { h.am.lastFailure?.reason }

    @Test func noExistingUserIsNoAccount() throws {
        let h = try T.harness([
            (
                "n", "IdentifyExistingUserNode", ["true": T.success, "false": T.failure],
                ["identityAttribute": "userName"]
            )
        ])
        #expect(T.begin(h, username: "nobody").status == 401)
        #expect(Self.reason(h)?.code == "no_account")
        #expect(Self.reason(h)?.fields["attribute"] == "userName")
    }

    @Test func aRetryLimitRejectingSaysTheRetriesAreUsedUp() throws {
        let h = try T.harness([
            (
                "n", "RetryLimitDecisionNode", ["Retry": "ask", "Reject": T.failure],
                ["retryLimit": 1, "incrementUserAttributeOnFailure": false]
            ),
            ("ask", "UsernameCollectorNode", ["outcome": "n"], [:]),
        ])
        let again = T.begin(h)
        #expect(h.am.lastFailure == nil, "a retry is not a failure")
        #expect(h.submit(again.body, ["IDToken1": "demo"]).status == 401)
        #expect(Self.reason(h)?.code == "retries_exhausted")
        #expect(Self.reason(h)?.fields["retryLimit"] == 1)
    }

    @Test func aWrongRecoveryCodeIsSaidSo() throws {
        let h = try T.harness([
            (
                "n", "RecoveryCodeCollectorDecisionNode", ["true": T.success, "false": T.failure],
                ["recoveryCodeType": "OATH"]
            )
        ])
        #expect(h.submit(T.begin(h).body, ["IDToken1": "not-a-code-typed"]).status == 401)
        #expect(Self.reason(h)?.code == "wrong_recovery_code")
        #expect(h.am.lastFailure?.logLine.contains("not-a-code-typed") == false)
    }

    @Test func anInnerJourneysFailureIsNamedWithItsOwnReason() throws {
        let h = Harness()
        let inner = AMExports.tree(
            "Inner", entry: "u",
            [
                ("u", "UsernameCollectorNode", ["outcome": "n"], [:]),
                (
                    "n", "IdentifyExistingUserNode", ["true": T.success, "false": T.failure],
                    ["identityAttribute": "userName"]
                ),
            ])
        let outer = AMExports.tree(
            "Outer", entry: "i",
            [("i", "InnerTreeEvaluatorNode", ["true": T.success, "false": T.failure], ["tree": "Inner"])])
        for journey in try AMExports.load([inner, outer]) { h.am.add(journey: journey) }
        #expect(h.submit(h.start("Outer").body, ["IDToken1": "nobody"]).status == 401)
        let failure = try #require(h.am.lastFailure)
        #expect(failure.journey == "Outer")
        #expect(failure.reason?.code == "inner_journey_failed")
        #expect(failure.reasonNode?.id == "i")
        #expect(failure.reason?.fields["journey"] == "Inner")
        #expect(failure.reason?.fields["innerReason"]?["code"] == "no_account")
        #expect(failure.reason?.fields["innerReason"]?["node"]?["id"] == "n")
    }

    @Test func aPolicyThatFailedIsTheReasonGivenOnTheWay() throws {
        let h = try T.harness([("n", "ValidatedPasswordNode", ["outcome": T.failure], ["validateInput": true])])
        let step = T.begin(h)
        let again = h.submit(step.body, ["IDToken1": "weak"])
        #expect(T.types(again.body) == ["ValidatedCreatePasswordCallback"], "shown again")
        #expect(h.submit(again.body, ["IDToken1": "Str0ngEnough!"]).status == 401)
        let reason = try #require(Self.reason(h))
        #expect(reason.code == "policy_failed")
        let policies = reason.fields["policies"]?[0]
        #expect(policies?["field"] == "password")
        #expect(policies?["requirements"] == ["MIN_LENGTH", "AT_LEAST_X_CAPITAL_LETTERS", "AT_LEAST_X_NUMBERS"])
        #expect(!JSONWriter.compact(.object(try #require(h.am.lastFailure).json)).contains("weak"))
    }

    @Test func aUserThatExistsAlreadyIsWhyCreateObjectFails() throws {
        let h = try T.harness([
            (
                "n", "CreateObjectNode", ["CREATED": T.success, "FAILURE": T.failure],
                ["identityResource": "managed/user"]
            )
        ])
        // The Username Collector puts `demo` in shared state; the password comes from nowhere.
        #expect(T.begin(h).status == 401)
        #expect(Self.reason(h)?.code == "missing_attribute")
        #expect(Self.reason(h)?.fields["attribute"] == "password")
    }

    @Test func anAgentThatIsNotOneOrAWrongAgentPassword() throws {
        let h = try T.harness([
            ("n", "PasswordCollectorNode", ["outcome": "a"], [:]),
            ("a", "AgentDataStoreDecisionNode", ["true": T.success, "false": T.failure], [:]),
        ])
        _ = h.submit(T.begin(h, username: "nobody").body, ["IDToken1": "x"])
        #expect(Self.reason(h)?.code == "unknown_agent")
        _ = h.submit(T.begin(h, username: "web-agent").body, ["IDToken1": "wrong-typed"])
        #expect(Self.reason(h)?.code == "wrong_agent_password")
        #expect(h.am.lastFailure?.logLine.contains("wrong-typed") == false)
    }

    @Test func aStaleOrReplayedAuthIdIsRecorded() throws {
        let h = Harness()
        let step = h.start("Login").body
        #expect(h.submit(step, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body["tokenId"] != nil)
        #expect(h.submit(step, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body == AMErrors.sessionTimedOut)
        #expect(h.am.lastFailure?.reason?.code == "auth_id_used")
        #expect(h.am.lastFailure?.journey == "Login")

        let late = h.start("Login").body
        h.clock.advance(by: 24 * 3600)
        #expect(h.submit(late, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body == AMErrors.sessionTimedOut)
        #expect(h.am.lastFailure?.reason?.code == "session_timed_out")
        #expect(h.am.lastFailure?.journey == "Login")

        var forged = late
        if case .object(var object) = forged {
            object["authId"] = "not.a.jwt"
            forged = .object(object)
        }
        #expect(h.am.authenticate(.submit(forged)).body == AMErrors.sessionTimedOut)
        #expect(h.am.lastFailure?.reason?.code == "auth_id_invalid")
    }

    @Test func anExpiredOrUnknownSuspendedLinkIsRecorded() throws {
        let h = Harness()
        _ = h.submit(h.start("EmailSuspend").body, ["IDToken1": "demo"])
        let link = try #require(h.am.outbox.lastSuspendLink)
        h.clock.advance(by: 301)
        #expect(
            h.am.authenticate(AuthenticateRequest(suspendedId: link.suspendedId)).body == AMErrors.suspendedIdNotFound)
        let expired = try #require(h.am.lastFailure)
        #expect(expired.reason?.code == "suspended_link_expired")
        #expect(expired.journey == "EmailSuspend")
        #expect(expired.username == "demo")
        _ = h.am.authenticate(AuthenticateRequest(suspendedId: "no-such-id"))
        #expect(h.am.lastFailure?.reason?.code == "suspended_link_unknown")
    }

    @Test func leavingAPollingWaitOrAnsweringTooEarlyIsSaidSo() throws {
        let h = try T.harness([
            (
                "n", "PollingWaitNode", ["DONE": T.success, "EXITED": T.failure, "SPAM": T.failure],
                ["secondsToWait": 10, "exitable": true, "spamDetectionEnabled": true, "spamDetectionTolerance": 1]
            )
        ])
        #expect(h.submit(T.begin(h).body, ["IDToken2": 0]).status == 401)
        #expect(Self.reason(h)?.code == "polling_exited")
        var step = T.begin(h)
        step = h.submit(step.body, [:])
        #expect(T.types(step.body).first == "PollingWaitCallback", "one early answer is tolerated")
        #expect(h.submit(step.body, [:]).status == 401)
        #expect(Self.reason(h)?.code == "polling_spam")
    }

    @Test func aNodeErrorIsTheReasonWhenANodeThrows() throws {
        let h = try T.harness([
            ("n", "RetryLimitDecisionNode", ["Retry": T.success, "Reject": T.failure], ["retryLimit": 1])
        ])
        #expect(T.begin(h, username: "nobody").status == 401)
        #expect(Self.reason(h)?.code == "node_error")
        #expect(Self.reason(h)?.message.contains("nobody") == true)
    }
}
