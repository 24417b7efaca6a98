import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import Testing

@Suite struct RegistrationJourney {
    static let good: [String: JSONValue] = [
        "IDToken1": "sally", "IDToken2": "Sally", "IDToken3": "Tester", "IDToken4": "sally@example.com",
        "IDToken5": false, "IDToken6": true, "IDToken7": "Secr3tPassw0rd",
        "IDToken8question": "What's your favorite color?", "IDToken8answer": "Red",
        "IDToken9question": "Who was your first employer?", "IDToken9answer": "AAA Engineering",
        "IDToken10": true,
    ]

    static func failed(_ body: JSONValue, _ index: Int) -> [String] {
        body["callbacks"]?.arrayValue?[index]["output"]?.arrayValue?
            .first { $0["name"] == "failedPolicies" }?["value"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    @Test func pageHasTheTenCallbacksOfAMsRegistration() {
        let body = Harness().start("Registration").body
        #expect(body["header"] == "Sign Up")
        let types = body["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue }
        #expect(
            types == [
                "ValidatedCreateUsernameCallback", "StringAttributeInputCallback", "StringAttributeInputCallback",
                "StringAttributeInputCallback", "BooleanAttributeInputCallback", "BooleanAttributeInputCallback",
                "ValidatedCreatePasswordCallback", "KbaCreateCallback", "KbaCreateCallback",
                "TermsAndConditionsCallback",
            ])
        let callbacks = body["callbacks"]?.arrayValue ?? []
        #expect(callbacks.map { $0["_id"] } == (0..<10).map { .int(Int64($0)) })
        #expect(
            callbacks[0]["input"] == [
                ["name": "IDToken1", "value": ""], ["name": "IDToken1validateOnly", "value": false],
            ])
        #expect(
            callbacks[7]["input"] == [
                ["name": "IDToken8question", "value": ""], ["name": "IDToken8answer", "value": ""],
            ])
        #expect(callbacks[9]["input"] == [["name": "IDToken10", "value": false]])
        // AM's policy object, not the mock's list.
        let policies = callbacks[6]["output"]?.arrayValue?.first { $0["name"] == "policies" }?["value"]
        #expect(
            policies?["policyRequirements"] == [
                "REQUIRED", "MIN_LENGTH", "AT_LEAST_X_CAPITAL_LETTERS", "AT_LEAST_X_NUMBERS", "CANNOT_CONTAIN_OTHERS",
            ])
        #expect(policies?["fallbackPolicies"] == .null)
        #expect(policies?["name"] == "password")
        let boolean = callbacks[4]["output"]?.arrayValue ?? []
        #expect(
            boolean.map { $0["name"]?.stringValue ?? "" } == [
                "name", "prompt", "required", "policies", "failedPolicies", "validateOnly", "value",
            ])
        #expect(boolean.first { $0["name"] == "policies" }?["value"] == .object([:]))
        #expect(boolean.first { $0["name"] == "name" }?["value"] == "preferences/marketing")
    }

    @Test func createsAUserWithAttributesAndHashedAnswersWhoCanLogIn() {
        let harness = Harness()
        let reply = harness.submit(harness.start("Registration").body, Self.good)
        #expect(reply.status == 200)
        #expect(reply.body["tokenId"] != nil)
        let user = harness.am.users.find(username: "sally")
        #expect(user?.givenName == "Sally")
        #expect(user?.email == "sally@example.com")
        #expect(user?.attributes["preferences"] == ["marketing": false, "updates": true])
        let kba = user?.attributes["kbaInfo"]?.arrayValue ?? []
        #expect(kba.count == 2)
        #expect(kba.first?["customQuestion"] == "What's your favorite color?")
        #expect(kba.first?["answer"]?["$crypto"]?["type"] == "salted-hash")
        #expect(!JSONWriter.compact(.array(kba)).contains("Red"))
        #expect(harness.ssoToken(username: "sally", password: "Secr3tPassw0rd") != nil)
    }

    @Test func passwordIsStoredSaltedAndHashed() {
        let harness = Harness()
        _ = harness.submit(harness.start("Registration").body, Self.good)
        let user = harness.am.users.find(username: "sally")!
        #expect(user.password.salt.count == 16)
        #expect(user.password.matches("Secr3tPassw0rd"))
        #expect(!user.password.matches("secr3tpassw0rd"))
        #expect(harness.am.users.find(username: "demo")!.password.salt != user.password.salt)
    }

    @Test func validateOnlyReturnsTheSamePageWithFailures() {
        let harness = Harness()
        let first = harness.start("Registration").body
        var values = Self.good
        values["IDToken1"] = "demo"
        values["IDToken7"] = "short"
        values["IDToken7validateOnly"] = true
        let reply = harness.submit(first, values)
        #expect(reply.status == 200)
        #expect(reply.body["authId"] != first["authId"])
        #expect(Self.failed(reply.body, 0) == [#"{ "policyRequirement": "VALID_USERNAME" }"#])
        #expect(
            Self.failed(reply.body, 6) == [
                #"{ "params": { "minLength": 8 }, "policyRequirement": "MIN_LENGTH" }"#,
                #"{ "params": { "numCaps": 1 }, "policyRequirement": "AT_LEAST_X_CAPITAL_LETTERS" }"#,
                #"{ "params": { "numNums": 1 }, "policyRequirement": "AT_LEAST_X_NUMBERS" }"#,
            ])
        #expect(Self.failed(reply.body, 1).isEmpty)
        #expect(harness.am.users.find(username: "sally") == nil)
        // Typed values come back, in inputs and in an attribute's `value`; passwords do not.
        let callbacks = reply.body["callbacks"]?.arrayValue ?? []
        #expect(callbacks[0]["input"]?.arrayValue?.first?["value"] == "demo")
        #expect(callbacks[1]["output"]?.arrayValue?.first { $0["name"] == "value" }?["value"] == "Sally")
        #expect(callbacks[6]["input"]?.arrayValue?.first?["value"] == "")
        #expect(callbacks[6]["input"]?.arrayValue?.last?["value"] == false)
    }

    @Test func validateOnlyWithGoodValuesStillWaits() {
        let harness = Harness()
        var values = Self.good
        values["IDToken1validateOnly"] = true
        let reply = harness.submit(harness.start("Registration").body, values)
        #expect(reply.body["authId"] != nil)
        #expect((0..<10).allSatisfy { Self.failed(reply.body, $0).isEmpty })
        #expect(harness.am.users.find(username: "sally") == nil)
        #expect(harness.submit(reply.body, Self.good).body["tokenId"] != nil)
    }

    @Test func policyFailureOnSubmitRepeatsThePage() {
        let harness = Harness()
        var values = Self.good
        values["IDToken4"] = "not-an-email"
        values["IDToken7"] = "Sally1234567"
        let reply = harness.submit(harness.start("Registration").body, values)
        #expect(Self.failed(reply.body, 3) == [#"{ "policyRequirement": "VALID_EMAIL_ADDRESS_FORMAT" }"#])
        #expect(
            Self.failed(reply.body, 6) == [
                #"{ "params": { "disallowedFields": [ "userName", "givenName", "sn" ] }, "policyRequirement": "CANNOT_CONTAIN_OTHERS" }"#
            ])
        #expect(harness.am.users.find(username: "sally") == nil)
    }

    /// AM 7's platform policy, which the sample app maps to "Please choose a different username."
    @Test func duplicateUsernameFailsValidUsername() {
        let harness = Harness()
        _ = harness.submit(harness.start("Registration").body, Self.good)
        let again = harness.submit(harness.start("Registration").body, Self.good)
        #expect(Self.failed(again.body, 0) == [#"{ "policyRequirement": "VALID_USERNAME" }"#])
    }

    /// A journey configured as older AM does keeps UNIQUE.
    @Test func aUniquePolicyStillFailsUnique() throws {
        let harness = Harness()
        let journey = try JourneyDefinition.load(
            fileText: #"""
                { "name": "OldRegistration", "entry": "p", "nodes": {
                  "p": { "type": "page", "callbacks": [ { "type": "ValidatedCreateUsernameCallback", "policies": [ { "policyId": "unique" } ] } ],
                         "outcomes": { "next": "s" } },
                  "s": { "type": "success" } } }
                """#)
        harness.am.add(journey: journey[0])
        let reply = harness.submit(harness.start("OldRegistration").body, ["IDToken1": "demo"])
        #expect(Self.failed(reply.body, 0) == [#"{ "policyRequirement": "UNIQUE" }"#])
    }

    /// AM 7.3 and later tell the client whether it may offer its own questions.
    @Test func kbaCallbacksSayWhetherUserDefinedQuestionsAreAllowed() {
        let harness = Harness()
        let step = harness.start("Registration")
        let kba = step.body["callbacks"]?.arrayValue?.filter { $0["type"] == "KbaCreateCallback" } ?? []
        #expect(kba.count == 2)
        for callback in kba {
            #expect(
                callback["output"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" } == [
                    "prompt", "predefinedQuestions", "allowUserDefinedQuestions",
                ])
            #expect(callback["output"]?.arrayValue?.last?["value"] == true)
        }
    }

    /// AM sends the terms again when they are refused, rather than failing the journey.
    @Test func termsNotAcceptedSendsTheTermsAgain() {
        let harness = Harness()
        var values = Self.good
        values["IDToken10"] = false
        let first = harness.start("Registration")
        let reply = harness.submit(first.body, values)
        #expect(reply.status == 200)
        #expect(harness.types(reply).last == "TermsAndConditionsCallback")
        #expect(reply.body["authId"] != first.body["authId"])
        #expect(harness.am.users.find(username: "sally") == nil)
        values["IDToken10"] = true
        #expect(harness.submit(reply.body, values).body["tokenId"] != nil, "accepting them goes on")
    }
}
