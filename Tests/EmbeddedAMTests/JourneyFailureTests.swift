import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// Why a journey failed (`emulator.lastFailure`, the info log): the node whose outcome reached
/// AM's failure and the last reason a node gave, never what the user typed.
@Suite struct JourneyFailureTests {
    @Test func aWrongPasswordNamesTheDecisionAndTheUserNotThePassword() throws {
        let harness = Harness()
        #expect(harness.am.lastFailure == nil)
        #expect(harness.signIn("Login", password: "s3cret-typed").status == 401)
        let failure = try #require(harness.am.lastFailure)
        #expect(failure.journey == "Login")
        #expect(failure.reason?.code == "wrong_password")
        #expect(failure.username == "demo")
        #expect(failure.node?.type == failure.reasonNode?.type)
        #expect(failure.outcome != nil)
        #expect(!failure.logLine.contains("s3cret-typed"))
        #expect(!JSONWriter.compact(.object(failure.json)).contains("s3cret-typed"))
        #expect(failure.at == harness.clock.now)
    }

    @Test func anUnknownUserIsSaidSo() throws {
        let harness = Harness()
        _ = harness.submit(harness.start("Login").body, ["IDToken1": "nobody", "IDToken2": "x"])
        let failure = try #require(harness.am.lastFailure)
        #expect(failure.reason?.code == "unknown_user")
        #expect(failure.reason?.message.contains("nobody") == true)
    }

    /// The retry limit's Reject leads to Account Lockout, which locks and says so; the next sign-in
    /// meets the lock.
    @Test func theRetryLimitLocksTheAccountAndTheLockIsTheReasonThen() throws {
        let harness = Harness()
        var step = harness.start("RetryLimit")
        for _ in 0..<3 {
            step = harness.submit(step.body, ["IDToken1": "demo", "IDToken2": "wrong"])
            #expect(harness.am.lastFailure == nil, "a retry is not a failure")
        }
        step = harness.submit(step.body, ["IDToken1": "demo", "IDToken2": "wrong"])
        #expect(step.status == 401)
        let locked = try #require(harness.am.lastFailure)
        #expect(locked.reason?.code == "account_locked")
        #expect(locked.node == locked.reasonNode)
        #expect(harness.signIn("Login").body == AMErrors.userLockedOut)
        #expect(harness.am.lastFailure?.journey == "Login")
        #expect(harness.am.lastFailure?.reason?.code == "account_locked")
    }

    /// A reason given earlier in the journey is named with the node that gave it.
    @Test func aReasonFromAnEarlierNodeIsNamedWithThatNode() {
        let failure = JourneyFailure(
            journey: "J", node: JourneyFailure.NodeRef(id: "b", type: "retryLimit", name: nil), outcome: "reject",
            reason: JourneyFailure.Reason("wrong_password", "the password given for demo is wrong"),
            reasonNode: JourneyFailure.NodeRef(id: "a", type: "dataStoreDecision", name: "Check"), username: "demo",
            at: 0)
        #expect(
            failure.logLine
                == "journey J failed at node (retryLimit, b), outcome reject: the password given for demo is wrong [wrong_password] (from node \"Check\" (dataStoreDecision, a))"
        )
    }

    @Test func aSuccessLeavesTheLastFailureAsItWas() throws {
        let harness = Harness()
        _ = harness.signIn("Login", password: "wrong")
        let failed = try #require(harness.am.lastFailure)
        #expect(harness.signIn("Login").body["tokenId"] != nil)
        #expect(harness.am.lastFailure == failed)
    }
}
