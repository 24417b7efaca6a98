import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import Testing

@Suite struct LoginJourney {
    @Test func firstStepHasAMsShape() {
        let reply = Harness().start("Login")
        #expect(reply.status == 200)
        let body = reply.body
        #expect(body.objectValue?.keys == ["authId", "callbacks", "stage", "header"])
        #expect(body["stage"] == "UsernamePassword")
        #expect(body["callbacks"] == [
            ["type": "NameCallback", "output": [["name": "prompt", "value": "User Name"]], "input": [["name": "IDToken1", "value": ""]], "_id": 0],
            ["type": "PasswordCallback", "output": [["name": "prompt", "value": "Password"]], "input": [["name": "IDToken2", "value": ""]], "_id": 1],
        ])
    }

    @Test func goodCredentialsGiveASession() {
        let harness = Harness()
        let reply = harness.submit(harness.start("Login").body, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"])
        #expect(reply.status == 200)
        #expect(reply.body.objectValue?.keys == ["tokenId", "successUrl", "realm"])
        #expect(reply.body["realm"] == "/alpha")
        let tokenId = reply.body["tokenId"]?.stringValue ?? ""
        #expect(reply.headers["Set-Cookie"] == "iPlanetDirectoryPro=\(tokenId); Path=/; HttpOnly")
        #expect(harness.am.sessions.find(tokenId)?.username == "demo")
    }

    @Test func usernameIsCaseInsensitivePasswordIsNot() {
        let harness = Harness()
        #expect(harness.ssoToken(username: "DEMO") != nil)
        #expect(harness.ssoToken(password: "ch4ng3it!") == nil)
    }

    @Test func wrongPasswordIsAMs401() {
        let harness = Harness()
        let reply = harness.submit(harness.start("Login").body, ["IDToken1": "demo", "IDToken2": "nope"])
        #expect(reply.status == 401)
        #expect(reply.body == AMErrors.loginFailure)
        #expect(harness.am.sessions.count == 0)
    }

    @Test func authIdIsGoodForOneAnswer() {
        let harness = Harness()
        let step = harness.start("Login").body
        _ = harness.submit(step, ["IDToken1": "demo", "IDToken2": "wrong"])
        let replay = harness.submit(step, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"])
        #expect(replay.status == 401)
        #expect(replay.body == AMErrors.sessionTimedOut)
        #expect(replay.body["detail"]?["errorCode"] == "110")
    }

    @Test func expiredAuthIdTimesOut() {
        let harness = Harness()
        let step = harness.start("Login").body
        harness.clock.advance(by: 301)
        let reply = harness.submit(step, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"])
        #expect(reply.body == AMErrors.sessionTimedOut)
    }

    @Test func forgedAuthIdIsRefused() {
        let harness = Harness()
        let other = Harness(seed: 2)
        let foreign = other.start("Login").body
        #expect(harness.submit(foreign, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body == AMErrors.sessionTimedOut)
        #expect(harness.am.authenticate(.submit(["authId": "garbage", "callbacks": []])).status == 401)
    }

    @Test func everyStepHasAFreshAuthId() {
        let harness = Harness()
        let a = harness.start("Login").body["authId"]
        let b = harness.start("Login").body["authId"]
        #expect(a != b)
    }

    @Test func unknownJourney() {
        let reply = Harness().start("NoSuchTree")
        #expect(reply.status == 400)
        #expect(reply.body["reason"] == "Bad Request")
    }

    @Test func noSessionSuccess() {
        let harness = Harness()
        let step = harness.start("Login").body
        var request = AuthenticateRequest.submit(Harness.fill(step, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]))
        request.noSession = true
        // noSession is fixed when the journey starts; here it starts with a session, so it ends with one.
        #expect(harness.am.authenticate(request).body["tokenId"] != nil)
    }

    @Test func sameSeedSameBytes() {
        let a = Harness(seed: 9).start("Login").body.compactText
        let b = Harness(seed: 9).start("Login").body.compactText
        #expect(a == b)
    }
}

@Suite struct RegistrationJourney {
    static let good: [String: JSONValue] = [
        "IDToken1": "sally", "IDToken2": "Sally", "IDToken3": "Tester", "IDToken4": "sally@example.com",
        "IDToken5": "Secr3tPassw0rd",
    ]

    @Test func pageShape() {
        let body = Harness().start("Registration").body
        #expect(body["header"] == "Sign Up")
        let types = body["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue }
        #expect(types == ["ValidatedCreateUsernameCallback", "StringAttributeInputCallback", "StringAttributeInputCallback",
                          "StringAttributeInputCallback", "ValidatedCreatePasswordCallback"])
        let username = body["callbacks"]?.arrayValue?[0]
        #expect(username?["input"] == [["name": "IDToken1", "value": ""], ["name": "IDToken1validateOnly", "value": false]])
        #expect(username?["output"]?.arrayValue?.first?["value"]?["policies"]?.arrayValue?.count == 2)
    }

    @Test func createsAUserWhoCanLogIn() {
        let harness = Harness()
        let reply = harness.submit(harness.start("Registration").body, Self.good)
        #expect(reply.status == 200)
        #expect(reply.body["tokenId"] != nil)
        let user = harness.am.users.find(username: "sally")
        #expect(user?.givenName == "Sally")
        #expect(user?.email == "sally@example.com")
        #expect(harness.ssoToken(username: "sally", password: "Secr3tPassw0rd") != nil)
    }

    @Test func passwordIsStoredSaltedAndHashed() {
        let harness = Harness()
        _ = harness.submit(harness.start("Registration").body, Self.good)
        let user = harness.am.users.find(username: "sally")!
        #expect(user.password.salt.count == 16)
        #expect(user.password.digest != Array("Secr3tPassw0rd".utf8))
        #expect(user.password.matches("Secr3tPassw0rd"))
        #expect(!user.password.matches("secr3tpassw0rd"))
        #expect(harness.am.users.find(username: "demo")!.password.salt != user.password.salt)
    }

    @Test func validateOnlyReturnsTheSamePageWithFailures() {
        let harness = Harness()
        let first = harness.start("Registration").body
        var values = Self.good
        values["IDToken1"] = "demo"
        values["IDToken5"] = "short"
        values["IDToken5validateOnly"] = true
        let reply = harness.submit(first, values)
        #expect(reply.status == 200)
        #expect(reply.body["authId"] != first["authId"])
        let callbacks = reply.body["callbacks"]?.arrayValue ?? []
        func failed(_ index: Int) -> [String] {
            callbacks[index]["output"]?.arrayValue?.first { $0["name"] == "failedPolicies" }?["value"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
        #expect(failed(0) == [#"{ "policyRequirement": "UNIQUE" }"#])
        #expect(failed(4) == [
            #"{ "params": { "minLength": 8 }, "policyRequirement": "MIN_LENGTH" }"#,
            #"{ "params": { "numCaps": 1 }, "policyRequirement": "AT_LEAST_X_CAPITAL_LETTERS" }"#,
            #"{ "params": { "numNums": 1 }, "policyRequirement": "AT_LEAST_X_NUMBERS" }"#,
        ])
        #expect(failed(1).isEmpty)
        #expect(harness.am.users.find(username: "sally") == nil)
        // Typed values come back; passwords do not.
        #expect(callbacks[0]["input"]?.arrayValue?.first?["value"] == "demo")
        #expect(callbacks[4]["input"]?.arrayValue?.first?["value"] == "")
    }

    @Test func validateOnlyWithGoodValuesStillWaits() {
        let harness = Harness()
        var values = Self.good
        values["IDToken1validateOnly"] = true
        let reply = harness.submit(harness.start("Registration").body, values)
        #expect(reply.body["authId"] != nil)
        #expect(harness.am.users.find(username: "sally") == nil)
        let next = harness.submit(reply.body, Self.good)
        #expect(next.body["tokenId"] != nil)
    }

    @Test func policyFailureOnSubmitRepeatsThePage() {
        let harness = Harness()
        var values = Self.good
        values["IDToken4"] = "not-an-email"
        values["IDToken5"] = "Sally1234567"
        let reply = harness.submit(harness.start("Registration").body, values)
        let callbacks = reply.body["callbacks"]?.arrayValue ?? []
        let mailFailures = callbacks[3]["output"]?.arrayValue?.first { $0["name"] == "failedPolicies" }?["value"]
        #expect(mailFailures == [#"{ "policyRequirement": "VALID_EMAIL_ADDRESS_FORMAT" }"#])
        let passwordFailures = callbacks[4]["output"]?.arrayValue?.first { $0["name"] == "failedPolicies" }?["value"]
        #expect(passwordFailures == [#"{ "params": { "disallowedFields": [ "userName", "givenName", "sn" ] }, "policyRequirement": "CANNOT_CONTAIN_OTHERS" }"#])
    }

    @Test func duplicateUsernameFailsUnique() {
        let harness = Harness()
        _ = harness.submit(harness.start("Registration").body, Self.good)
        let again = harness.submit(harness.start("Registration").body, Self.good)
        let failures = again.body["callbacks"]?.arrayValue?[0]["output"]?.arrayValue?.first { $0["name"] == "failedPolicies" }?["value"]
        #expect(failures == [#"{ "policyRequirement": "UNIQUE" }"#])
    }
}

@Suite struct JourneyDefinitions {
    @Test func errorsNameTheNodeAndReason() throws {
        let cases: [(String, String)] = [
            (#"{"name":"J","entry":"a","nodes":{"a":{"type":"warp"}}}"#, #"journey "J", node "a": unknown node type "warp""#),
            (#"{"name":"J","entry":"a","nodes":{"a":{"type":"page","callbacks":[],"outcomes":{"next":"a"}}}}"#,
             #"journey "J", node "a": a page needs a non-empty "callbacks" array"#),
            (#"{"name":"J","entry":"a","nodes":{"a":{"type":"dataStoreDecision","outcomes":{"true":"b"}},"b":{"type":"success"}}}"#,
             #"journey "J", node "a": missing outcome "false""#),
            (#"{"name":"J","entry":"a","nodes":{"a":{"type":"page","callbacks":[{"type":"NameCallback"}],"outcomes":{"next":"zz"}}}}"#,
             #"journey "J", node "a": outcome "next" leads to unknown node "zz""#),
            (#"{"name":"J","entry":"x","nodes":{"a":{"type":"success"}}}"#, #"journey "J": entry node "x" does not exist"#),
            (#"{"name":"J","entry":"a","nodes":{"a":{"type":"page","callbacks":[{"type":"FooCallback"}],"outcomes":{"next":"a"}}}}"#,
             #"journey "J", node "a": callback 0: unsupported callback type "FooCallback""#),
        ]
        for (text, message) in cases {
            let json = try JSONParser.parse(text)
            do {
                _ = try JourneyDefinition(json: json)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func customJourneyRuns() throws {
        let harness = Harness()
        harness.am.add(journey: try JourneyDefinition(json: try JSONParser.parse(#"""
            {"name":"Two","entry":"user","nodes":{
              "user":{"type":"page","stage":"U","callbacks":[{"type":"NameCallback"}],"outcomes":{"next":"pass"}},
              "pass":{"type":"page","stage":"P","callbacks":[{"type":"TextOutputCallback","message":"Hi"},{"type":"PasswordCallback"}],"outcomes":{"next":"check"}},
              "check":{"type":"dataStoreDecision","outcomes":{"true":"ok","false":"no"}},
              "ok":{"type":"success"},"no":{"type":"failure"}}}
            """#)))
        let first = harness.start("Two")
        #expect(first.body["stage"] == "U")
        let second = harness.submit(first.body, ["IDToken1": "demo"])
        #expect(second.body["stage"] == "P")
        #expect(second.body["callbacks"]?.arrayValue?[0] == ["type": "TextOutputCallback", "output": [["name": "message", "value": "Hi"], ["name": "messageType", "value": "0"]], "_id": 0])
        #expect(harness.submit(second.body, ["IDToken2": "Ch4ng3it!"]).body["tokenId"] != nil)
    }
}
