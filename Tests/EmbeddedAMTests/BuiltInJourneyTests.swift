import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// The step sequences of docs/journeys.md (J3–J11), each through its success and its failures.
extension Harness {
    func types(_ reply: ServerReply) -> [String] {
        reply.body["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
    }

    func output(_ reply: ServerReply, _ index: Int, _ name: String) -> JSONValue? {
        reply.body["callbacks"]?.arrayValue?[index]["output"]?.arrayValue?.first { $0["name"]?.stringValue == name }?[
            "value"]
    }

    /// Starts `journey` and answers its credentials page.
    func signIn(_ journey: String, password: String = "Ch4ng3it!") -> ServerReply {
        submit(start(journey).body, ["IDToken1": "demo", "IDToken2": .string(password)])
    }
}

@Suite struct PlatformLoginJourney {
    @Test func validateOnlyShowsTheSamePageThenLogsIn() {
        let harness = Harness()
        let first = harness.start("PlatformLogin")
        #expect(harness.types(first) == ["ValidatedCreateUsernameCallback", "ValidatedCreatePasswordCallback"])
        #expect(first.body["stage"] == "UsernamePassword")
        let check = harness.submit(first.body, ["IDToken1": "demo", "IDToken2": "x", "IDToken2validateOnly": true])
        #expect(harness.types(check) == harness.types(first))
        #expect(check.body["authId"] != first.body["authId"])
        #expect(harness.submit(check.body, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body["tokenId"] != nil)
    }

    @Test func wrongPasswordFails() {
        let harness = Harness()
        #expect(harness.signIn("PlatformLogin", password: "nope").body == AMErrors.loginFailure)
    }
}

@Suite struct MiscCallbacksJourney {
    func walk(_ harness: Harness, color: JSONValue = 1, confirm: JSONValue = 0) -> ServerReply {
        var step = harness.start("MiscCallbacks")
        step = harness.submit(step.body, ["IDToken1": "demo"])
        #expect(harness.output(step, 0, "prompt") == "Provide a nickname for this account")
        step = harness.submit(step.body, ["IDToken1": "Text Input String"])
        step = harness.submit(step.body, ["IDToken1": "Ch4ng3it!"])
        #expect(harness.output(step, 0, "choices") == ["red", "green", "blue"])
        #expect(step.body["callbacks"]?.arrayValue?[0]["input"] == [["name": "IDToken1", "value": 0]])
        step = harness.submit(step.body, ["IDToken1": color])
        guard step.status == 200 else { return step }
        #expect(harness.types(step) == ["TextOutputCallback", "ConfirmationCallback"])
        #expect(harness.output(step, 0, "messageType") == "0")
        #expect(harness.output(step, 1, "defaultOption") == 1)
        // AM pre-fills 0, whatever `defaultOption` says.
        #expect(step.body["callbacks"]?.arrayValue?[1]["input"] == [["name": "IDToken2", "value": 0]])
        return harness.submit(step.body, ["IDToken2": confirm])
    }

    @Test func everyAnswerRightReachesThePollThenSuccess() {
        let harness = Harness()
        let poll = walk(harness)
        #expect(harness.types(poll) == ["PollingWaitCallback"])
        #expect(harness.output(poll, 0, "waitTime") == "1000")
        let early = harness.submit(poll.body, [:])
        #expect(harness.types(early) == ["PollingWaitCallback"])
        harness.clock.advance(by: 1)
        #expect(harness.submit(early.body, [:]).body["tokenId"] != nil)
    }

    @Test func wrongColorOrConfirmationFails() {
        #expect(walk(Harness(), color: 2).body == AMErrors.loginFailure)
        #expect(walk(Harness(), confirm: 1).body == AMErrors.loginFailure)
        // A numeric string is read as the index, as AM does for Flutter's text.
        let harness = Harness()
        #expect(harness.types(walk(harness, color: "1")) == ["PollingWaitCallback"])
    }

    @Test func aChoiceThatIsNoIndexIsABadRequestAndTheStepStays() {
        let harness = Harness()
        var step = harness.start("MiscCallbacks")
        for answer: JSONValue in ["demo", "Nick", "Ch4ng3it!"] {
            step = harness.submit(step.body, ["IDToken1": answer])
        }
        for bad: JSONValue in ["green", 3, -1] {
            let reply = harness.submit(step.body, ["IDToken1": bad])
            #expect(reply.status == 400)
            #expect(reply.body["message"]?.stringValue?.hasPrefix("Invalid value for ChoiceCallback IDToken1") == true)
        }
        #expect(
            harness.types(harness.submit(step.body, ["IDToken1": 1])) == ["TextOutputCallback", "ConfirmationCallback"])
    }
}

@Suite struct PollingWaitJourney {
    @Test func resubmitsBeforeTheDeadlineGetTheSameStepThenSuccess() {
        let harness = Harness()
        var step = harness.signIn("PollingWait")
        #expect(harness.types(step) == ["PollingWaitCallback", "ConfirmationCallback"])
        #expect(harness.output(step, 0, "waitTime") == "5000")
        #expect(harness.output(step, 0, "message") == "Please Wait")
        #expect(harness.output(step, 1, "options") == ["Exit"])
        #expect(harness.output(step, 1, "optionType") == -1)
        for _ in 0..<4 {
            harness.clock.advance(by: 1.2)
            let again = harness.submit(step.body, [:])
            #expect(harness.types(again) == harness.types(step))
            #expect(again.body["authId"] != step.body["authId"])
            step = again
        }
        harness.clock.advance(by: 0.3)
        #expect(harness.submit(step.body, [:]).body["tokenId"] != nil)
    }

    @Test func exitEndsInFailure() {
        let harness = Harness()
        let step = harness.signIn("PollingWait")
        #expect(harness.submit(step.body, ["IDToken2": 0]).body == AMErrors.loginFailure)
    }
}

@Suite struct DeviceProfileJourney {
    static let profile =
        #"{"identifier":"a1b2","metadata":{"platform":{"platform":"iOS"}},"location":{"latitude":51.5,"longitude":-0.12}}"#

    @Test func aProfileWithIdentifierMetadataAndLocationSucceeds() {
        let harness = Harness()
        let step = harness.signIn("DeviceProfile")
        #expect(harness.types(step) == ["DeviceProfileCallback"])
        #expect(harness.output(step, 0, "metadata") == true)
        #expect(harness.output(step, 0, "message") == "Collecting profile ...")
        #expect(harness.submit(step.body, ["IDToken1": .string(Self.profile)]).body["tokenId"] != nil)
    }

    /// AM's Device Profile Collector throws on these, so the journey fails.
    @Test func noProfileNoIdentifierOrTooLargeFails() {
        let large = #"{"identifier":"x","metadata":{"pad":""# + String(repeating: "a", count: 3 * 1024) + #""}}"#
        for bad: JSONValue in [
            "", #"{"identifier":"","metadata":{},"location":{}}"#, ["identifier": "x"], "not json", .string(large),
        ] {
            let harness = Harness()
            #expect(
                harness.submit(harness.signIn("DeviceProfile").body, ["IDToken1": bad]).body == AMErrors.loginFailure)
        }
    }

    /// Changed with the one catalog: AM's node does not check that the parts it asked for came
    /// back (the built-in node used to fail without `location`).
    @Test func aProfileWithoutWhatWasAskedForGoesOnAsInAM() {
        let harness = Harness()
        let step = harness.signIn("DeviceProfile")
        #expect(harness.submit(step.body, ["IDToken1": #"{"identifier":"x","metadata":{}}"#]).body["tokenId"] != nil)
    }
}

@Suite struct SecondFactorJourney {
    /// As AM sends it: the choice carries its stage, and a step a node sends itself has no `_id`.
    @Test func theChoiceStepHasItsStageAndNoId() {
        let harness = Harness()
        let choice = harness.signIn("SecondFactor")
        #expect(choice.body["stage"] == "SecondFactorChoice")
        #expect(choice.body["callbacks"]?.arrayValue?.allSatisfy { $0["_id"] == nil } == true)
        #expect(
            harness.start("Login").body["callbacks"]?.arrayValue?.map { $0["_id"] } == [0, 1], "a page step keeps them")
    }

    @Test func emailCodeFromTheOutboxSucceeds() {
        let harness = Harness()
        let choice = harness.signIn("SecondFactor")
        #expect(harness.types(choice) == ["ChoiceCallback"])
        #expect(harness.output(choice, 0, "prompt") == "Choose Second Factor")
        #expect(harness.output(choice, 0, "choices") == ["Email", "SMS"])
        let otp = harness.submit(choice.body, ["IDToken1": 0])
        #expect(otp.body["stage"] == "OneTimePasswordEmail")
        #expect(harness.output(otp, 0, "prompt") == "One Time Password")
        let sent = harness.am.outbox.lastOneTimeCode
        #expect(sent?.delivery == "email")
        #expect(sent?.to == "demo@example.com")
        #expect(sent?.code.count == 6)
        #expect(harness.submit(otp.body, ["IDToken1": .string(sent?.code ?? "")]).body["tokenId"] != nil)
    }

    @Test func smsGoesToThePhoneAndAWrongCodeFails() {
        let harness = Harness()
        let otp = harness.submit(harness.signIn("SecondFactor").body, ["IDToken1": 1])
        #expect(otp.body["stage"] == "OneTimePasswordSMS")
        #expect(harness.am.outbox.lastOneTimeCode?.to == "+15555550100")
        #expect(harness.submit(otp.body, ["IDToken1": "000000x"]).body == AMErrors.loginFailure)
    }

    /// Changed with the one catalog: AM's OTP Collector Decision has no `expired` outcome. A
    /// code older than `validity` is `false`; one exactly that old is still good, as AM compares.
    @Test func anExpiredCodeIsFalseAsInAM() throws {
        let harness = Harness()
        harness.am.add(
            journey: try JourneyDefinition(
                json: try JSONParser.parse(
                    #"""
                    {"name":"ShortCode","entry":"who","nodes":{
                      "who":{"type":"page","callbacks":[{"type":"NameCallback"}],"outcomes":{"next":"send"}},
                      "send":{"type":"otpGenerate","length":8,"delivery":"sms","outcomes":{"next":"verify"}},
                      "verify":{"type":"otpVerify","validity":5,"outcomes":{"true":"ok","false":"no","expired":"why"}},
                      "why":{"type":"setFailureDetails","message":"Code expired","details":{"Reason":"otp_expired"},"outcomes":{"next":"no"}},
                      "ok":{"type":"success"},"no":{"type":"failure"}}}
                    """#)))
        var step = harness.submit(harness.start("ShortCode").body, ["IDToken1": "demo"])
        var code = harness.am.outbox.lastOneTimeCode?.code ?? ""
        #expect(code.count == 8)
        harness.clock.advance(by: 5)
        #expect(harness.submit(step.body, ["IDToken1": .string(code)]).body["tokenId"] != nil)
        step = harness.submit(harness.start("ShortCode").body, ["IDToken1": "demo"])
        code = harness.am.outbox.lastOneTimeCode?.code ?? ""
        harness.clock.advance(by: 6)
        #expect(harness.submit(step.body, ["IDToken1": .string(code)]).body == AMErrors.loginFailure)
    }

    /// Changed with the one catalog: AM's OTP SMS Sender fails the journey when the user has no
    /// phone number (the built-in node "sent" the code to an empty address).
    @Test func aUserWithoutAPhoneNumberFails() {
        let harness = Harness()
        harness.am.users.update(username: "demo") { $0.attributes["telephoneNumber"] = nil }
        #expect(harness.submit(harness.signIn("SecondFactor").body, ["IDToken1": 1]).body == AMErrors.loginFailure)
        #expect(harness.am.outbox.lastOneTimeCode == nil)
    }

    @Test func codesDifferPerJourneyAndRepeatPerSeed() {
        let a = Harness(seed: 9)
        let b = Harness(seed: 9)
        _ = a.submit(a.signIn("SecondFactor").body, ["IDToken1": 0])
        _ = b.submit(b.signIn("SecondFactor").body, ["IDToken1": 0])
        #expect(a.am.outbox.lastOneTimeCode?.code == b.am.outbox.lastOneTimeCode?.code)
        let first = a.am.outbox.lastOneTimeCode?.code
        _ = a.submit(a.signIn("SecondFactor").body, ["IDToken1": 0])
        #expect(a.am.outbox.lastOneTimeCode?.code != first)
    }
}

@Suite struct OTPRegistrationJourney {
    @Test func qrStepThenSuccess() {
        let harness = Harness()
        let step = harness.signIn("OTPRegistration")
        #expect(
            harness.types(step) == [
                "TextOutputCallback", "TextOutputCallback", "HiddenValueCallback", "ConfirmationCallback",
            ])
        #expect(harness.output(step, 1, "messageType") == "4")
        #expect(harness.output(step, 2, "id") == "mfaDeviceRegistration")
        #expect(harness.output(step, 2, "value")?.stringValue?.hasPrefix("otpauth://totp/") == true)
        #expect(
            step.body["callbacks"]?.arrayValue?[2]["input"] == [["name": "IDToken3", "value": "mfaDeviceRegistration"]])
        // iOS leaves the script TextOutput out of what it submits: answers are found by name.
        guard case .object(var payload) = step.body else { return }
        payload["callbacks"] = .array(
            (step.body["callbacks"]?.arrayValue ?? []).enumerated().filter { $0.offset != 1 }.map(\.element))
        #expect(harness.am.authenticate(.submit(.object(payload))).body["tokenId"] != nil)
    }
}

@Suite struct RetryLimitJourney {
    /// A limit of 3 allows 3 retries: the fourth wrong password is rejected (AM's Retry Limit).
    @Test func wrongPasswordLoopsBackThenLocksTheAccount() {
        let harness = Harness()
        var step = harness.start("RetryLimit")
        for _ in 0..<3 {
            let again = harness.submit(step.body, ["IDToken1": "demo", "IDToken2": "wrong"])
            #expect(again.status == 200)
            #expect(harness.types(again) == ["NameCallback", "PasswordCallback"])
            #expect(again.body["authId"] != step.body["authId"])
            step = again
        }
        let fourth = harness.submit(step.body, ["IDToken1": "demo", "IDToken2": "wrong"])
        #expect(fourth.status == 401)
        #expect(fourth.body == AMErrors.loginFailure)
        // Locked: even the right password, in any journey, meets "User Locked Out."
        #expect(harness.signIn("RetryLimit").body == AMErrors.userLockedOut)
        #expect(harness.signIn("Login").body == AMErrors.userLockedOut)
    }

    /// Changed with the one catalog: AM's Account Lockout makes the user inactive until
    /// unlocked (the built-in node locked for 300 s), and the rejecting pass clears the count.
    @Test func theLockHoldsUntilUnlockedAndTheCountIsCleared() {
        let harness = Harness()
        var step = harness.start("RetryLimit")
        for _ in 0..<4 { step = harness.submit(step.body, ["IDToken1": "demo", "IDToken2": "wrong"]) }
        #expect(harness.am.users.find(username: "demo")?.lock == DirectoryUser.AccountLock(until: nil))
        #expect(harness.am.users.find(username: "demo")?.counters == [:])
        harness.clock.advance(by: 10 * 365 * 86400)
        #expect(harness.signIn("Login").body == AMErrors.userLockedOut)
    }

    @Test func theCountIsSavedToTheUserAcrossJourneysAndResetBySuccess() {
        let harness = Harness()
        _ = harness.submit(harness.start("RetryLimit").body, ["IDToken1": "demo", "IDToken2": "wrong"])
        _ = harness.submit(harness.start("RetryLimit").body, ["IDToken1": "demo", "IDToken2": "wrong"])
        #expect(harness.am.users.find(username: "demo")?.counters == ["RetryLimit/retry": 2])
        #expect(harness.signIn("RetryLimit").body["tokenId"] != nil)
        #expect(harness.am.users.find(username: "demo")?.counters == [:])
    }

    @Test func anUnknownUserEndsAtOnce() {
        let harness = Harness()
        let reply = harness.submit(harness.start("RetryLimit").body, ["IDToken1": "nobody", "IDToken2": "x"])
        #expect(reply.body == AMErrors.loginFailure)
    }
}

@Suite struct LockoutModeJourney {
    @Test func warnsBeforeTheLockThenLocks() {
        let harness = Harness()
        #expect(harness.signIn("LockoutMode", password: "x").body == AMErrors.loginFailure)
        #expect(
            harness.signIn("LockoutMode", password: "x").body == [
                "code": 401, "reason": "Unauthorized",
                "message": "Warning: You will be locked out after 1 more failure(s).",
                "detail": ["failureUrl": ""],
            ])
        #expect(harness.signIn("LockoutMode", password: "x").body == AMErrors.userLockedOut)
        #expect(harness.signIn("LockoutMode").body == AMErrors.userLockedOut)
        harness.clock.advance(by: 300)
        #expect(harness.signIn("LockoutMode").body["tokenId"] != nil)
    }
}

@Suite struct EmailSuspendJourney {
    @Test func theLinkResumesTheJourney() {
        let harness = Harness()
        let suspended = harness.submit(harness.start("EmailSuspend").body, ["IDToken1": "demo"])
        #expect(harness.types(suspended) == ["SuspendedTextOutputCallback"])
        #expect(harness.output(suspended, 0, "messageType") == "0")
        let link = harness.am.outbox.lastSuspendLink
        #expect(link?.to == "demo@example.com")
        #expect(link?.resumeURI.hasSuffix("suspendedId=\(link?.suspendedId ?? "-")") == true)
        // Answering the step does not move it; the link does, once.
        #expect(harness.types(harness.submit(suspended.body, [:])) == ["SuspendedTextOutputCallback"])
        let resumed = harness.am.authenticate(AuthenticateRequest(suspendedId: link?.suspendedId))
        #expect(resumed.body["tokenId"] != nil)
        #expect(
            harness.am.authenticate(AuthenticateRequest(suspendedId: link?.suspendedId)).body
                == AMErrors.suspendedIdNotFound)
    }

    @Test func anExpiredOrUnknownIdIsAMsException() {
        let harness = Harness()
        _ = harness.submit(harness.start("EmailSuspend").body, ["IDToken1": "demo"])
        let id = harness.am.outbox.lastSuspendLink?.suspendedId
        harness.clock.advance(by: 300)
        let reply = harness.am.authenticate(AuthenticateRequest(suspendedId: id))
        #expect(reply.status == 401)
        #expect(
            reply.body["message"]
                == "org.forgerock.openam.auth.nodes.framework.token.SuspendedAuthSessionException: Token not found. It may have expired."
        )
        #expect(harness.am.authenticate(AuthenticateRequest(suspendedId: "nope")).body == AMErrors.suspendedIdNotFound)
    }
}

@Suite struct JourneyTimeout {
    @Test func theJourneyTimesOutFromItsStartNotFromEachStep() {
        let harness = Harness()
        let name = harness.start("MiscCallbacks")
        harness.clock.advance(by: 200)
        let nickname = harness.submit(name.body, ["IDToken1": "demo"])
        #expect(nickname.status == 200)
        harness.clock.advance(by: 100)
        let late = harness.submit(nickname.body, ["IDToken1": "Nick"])
        #expect(late.status == 401)
        #expect(late.body["detail"]?["errorCode"] == "110")
    }

    @Test func aJourneyFileSetsItsOwnTimeout() throws {
        let harness = Harness()
        harness.am.add(
            journey: try JourneyDefinition(
                json: try JSONParser.parse(
                    #"""
                    {"name":"Quick","entry":"p","timeout":10,"nodes":{
                      "p":{"type":"page","callbacks":[{"type":"NameCallback"}],"outcomes":{"next":"s"}},"s":{"type":"success"}}}
                    """#)))
        let step = harness.start("Quick")
        harness.clock.advance(by: 10)
        #expect(harness.submit(step.body, ["IDToken1": "demo"]).body == AMErrors.sessionTimedOut)
    }
}

/// The built-ins are parsed when first asked for; until then the catalog knows them by name.
@Suite struct BuiltInJourneyCatalog {
    @Test func everyBuiltInParsesUnderTheNameItIsListedByAndLeavesNoNodeToAScenario() {
        for builtIn in BuiltInJourneys.all {
            let journey = JourneyCatalog.parse(builtIn: builtIn.text)
            #expect(journey.name == builtIn.name)
            #expect(journey.scenarioNodes.isEmpty, "\(builtIn.name)")
        }
        #expect(!JourneyCatalog(builtIns: BuiltInJourneys.all).hasScenarioNodes)
    }

    @Test func aJourneyIsParsedOnFirstUseAndAUserJourneyReplacesABuiltIn() throws {
        var catalog = JourneyCatalog(builtIns: BuiltInJourneys.all)
        #expect(catalog.names == BuiltInJourneys.all.map(\.name).sorted())
        #expect(catalog.named("Login")?.entry == "credentials")
        #expect(catalog.named("NoSuchJourney") == nil)
        let replacement = try JourneyDefinition(
            json: JSONParser.parse(#"{"name": "Login", "entry": "done", "nodes": {"done": {"type": "success"}}}"#))
        catalog.add(replacement)
        #expect(catalog.named("Login")?.entry == "done")
        #expect(catalog.names.count == BuiltInJourneys.all.count)
    }
}
