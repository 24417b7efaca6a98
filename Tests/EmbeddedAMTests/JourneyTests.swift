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
        #expect(
            body["callbacks"] == [
                [
                    "type": "NameCallback", "output": [["name": "prompt", "value": "User Name"]],
                    "input": [["name": "IDToken1", "value": ""]], "_id": 0,
                ],
                [
                    "type": "PasswordCallback", "output": [["name": "prompt", "value": "Password"]],
                    "input": [["name": "IDToken2", "value": ""]], "_id": 1,
                ],
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
        #expect(
            harness.submit(foreign, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body == AMErrors.sessionTimedOut)
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

@Suite struct JourneyDefinitions {
    @Test func errorsNameTheNodeAndReason() throws {
        let cases: [(String, String)] = [
            (
                #"{"name":"J","entry":"a","nodes":{"a":{"type":"warp"}}}"#,
                #"journey "J", node "a": unknown node type "warp""#
            ),
            (
                #"{"name":"J","entry":"a","nodes":{"a":{"type":"page","callbacks":[],"outcomes":{"next":"a"}}}}"#,
                #"journey "J", node "a": a page needs a non-empty "callbacks" array"#
            ),
            (
                #"{"name":"J","entry":"a","nodes":{"a":{"type":"dataStoreDecision","outcomes":{"true":"b"}},"b":{"type":"success"}}}"#,
                #"journey "J", node "a": missing outcome "false""#
            ),
            (
                #"{"name":"J","entry":"a","nodes":{"a":{"type":"page","callbacks":[{"type":"NameCallback"}],"outcomes":{"next":"zz"}}}}"#,
                #"journey "J", node "a": outcome "next" leads to unknown node "zz""#
            ),
            (
                #"{"name":"J","entry":"x","nodes":{"a":{"type":"success"}}}"#,
                #"journey "J": entry node "x" does not exist"#
            ),
            (
                #"{"name":"J","entry":"a","nodes":{"a":{"type":"page","callbacks":[{"type":"FooCallback"}],"outcomes":{"next":"a"}}}}"#,
                #"journey "J", node "a": callback 0: unsupported callback type "FooCallback""#
            ),
        ]
        for (text, message) in cases {
            let json = try JSONParser.parse(text)
            do {
                _ = try JourneyDefinition(json: json)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description.hasPrefix(message))
            }
        }
    }

    @Test func customJourneyRuns() throws {
        let harness = Harness()
        harness.am.add(
            journey: try JourneyDefinition(
                json: try JSONParser.parse(
                    #"""
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
        #expect(
            second.body["callbacks"]?.arrayValue?[0] == [
                "type": "TextOutputCallback",
                "output": [["name": "message", "value": "Hi"], ["name": "messageType", "value": "0"]], "_id": 0,
            ])
        #expect(harness.submit(second.body, ["IDToken2": "Ch4ng3it!"]).body["tokenId"] != nil)
    }
}

@Suite struct CallbackCatalogue {
    /// One page holding every callback type of the iOS SDK core list, as a journey file writes it.
    static let everyType = #"""
        [ {"type":"NameCallback"}, {"type":"PasswordCallback"}, {"type":"TextInputCallback","prompt":"Nickname","defaultText":"Bob"},
          {"type":"ChoiceCallback","prompt":"Color","choices":["red","green"],"defaultChoice":1},
          {"type":"ConfirmationCallback","options":["Yes","No"],"optionType":0,"defaultOption":1},
          {"type":"TextOutputCallback","message":"Hello","messageType":2}, {"type":"SuspendedTextOutputCallback","message":"Check your mail"},
          {"type":"PollingWaitCallback","waitTime":3000,"message":"Wait"}, {"type":"HiddenValueCallback","id":"clientError"},
          {"type":"ValidatedCreateUsernameCallback"}, {"type":"ValidatedCreatePasswordCallback","echoOn":true},
          {"type":"StringAttributeInputCallback","attribute":"city"}, {"type":"NumberAttributeInputCallback","attribute":"age",
           "policies":[{"policyId":"minimum-number-value","params":{"minimum":18}}]},
          {"type":"BooleanAttributeInputCallback","attribute":"preferences/updates"},
          {"type":"KbaCreateCallback","predefinedQuestions":["Q?"]}, {"type":"TermsAndConditionsCallback"},
          {"type":"DeviceProfileCallback","location":false}, {"type":"MetadataCallback","data":{"stage":"X"}},
          {"type":"ReCaptchaCallback","recaptchaSiteKey":"6Lc"}, {"type":"SelectIdPCallback","providers":[{"provider":"google","uiConfig":{}}]},
          {"type":"IdPCallback","provider":"google","clientId":"cid","redirectUri":"app://cb"}, {"type":"AppIntegrityCallback","challenge":"c1"},
          {"type":"WebAuthnRegistrationCallback","challenge":"ch"}, {"type":"WebAuthnAuthenticationCallback","challenge":"ch"} ]
        """#

    static func render() throws -> ServerReply {
        let harness = Harness()
        let journey =
            #"{"name":"All","entry":"p","nodes":{"p":{"type":"page","callbacks":\#(everyType),"outcomes":{"next":"s"}},"s":{"type":"success"}}}"#
        harness.am.add(journey: try JourneyDefinition(json: try JSONParser.parse(journey)))
        return harness.start("All")
    }

    @Test func everyIOSCoreTypeRendersInAMsShape() throws {
        let reply = try Self.render()
        let callbacks = reply.body["callbacks"]?.arrayValue ?? []
        func inputs(_ i: Int) -> [String] {
            callbacks[i]["input"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        }
        func outputs(_ i: Int) -> [String] {
            callbacks[i]["output"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        }
        func out(_ i: Int, _ name: String) -> JSONValue? {
            callbacks[i]["output"]?.arrayValue?.first { $0["name"]?.stringValue == name }?["value"]
        }
        // Both WebAuthn callbacks travel as a MetadataCallback plus the outcome HiddenValueCallback.
        #expect(callbacks.count == 26)
        #expect(
            callbacks.compactMap { $0["type"]?.stringValue }.suffix(4) == [
                "MetadataCallback", "HiddenValueCallback", "MetadataCallback", "HiddenValueCallback",
            ])
        #expect(callbacks.enumerated().allSatisfy { $0.element["_id"] == .int(Int64($0.offset)) })
        #expect(outputs(2) == ["prompt", "defaultText"])
        #expect(out(3, "defaultChoice") == 1)
        #expect(callbacks[3]["input"]?.arrayValue?.first?["value"] == 1)
        #expect(outputs(4) == ["prompt", "messageType", "options", "optionType", "defaultOption"])
        #expect(out(5, "messageType") == "2")
        #expect(callbacks[5]["input"] == nil)
        #expect(out(7, "waitTime") == "3000")
        #expect(callbacks[8]["input"]?.arrayValue?.first?["value"] == "clientError")
        #expect(outputs(10) == ["echoOn", "policies", "failedPolicies", "validateOnly", "prompt"])
        #expect(out(10, "echoOn") == true)
        #expect(callbacks[12]["input"]?.arrayValue?.first?["value"] == .null)
        #expect(inputs(14) == ["IDToken15question", "IDToken15answer"])
        #expect(outputs(15) == ["version", "terms", "createDate"])
        #expect(out(16, "location") == false)
        #expect(inputs(20) == ["IDToken21token", "IDToken21token_type"])
        #expect(
            inputs(21) == [
                "IDToken22token", "IDToken22clientError", "IDToken22keyId", "IDToken22assert", "IDToken22clientData",
            ])
        #expect(out(22, "data")?["_action"] == "webauthn_registration")
        #expect(out(23, "id") == "webAuthnOutcome")
        #expect(out(24, "data")?["_action"] == "webauthn_authentication")
    }

    @Test func numberPoliciesAreEvaluated() throws {
        let harness = Harness()
        harness.am.add(
            journey: try JourneyDefinition(
                json: try JSONParser.parse(
                    #"""
                    {"name":"Age","entry":"p","nodes":{"p":{"type":"page","callbacks":[{"type":"NumberAttributeInputCallback","attribute":"age",
                      "policies":[{"policyId":"minimum-number-value","params":{"minimum":18}}]}],"outcomes":{"next":"s"}},"s":{"type":"failure"}}}
                    """#)))
        let young = harness.submit(harness.start("Age").body, ["IDToken1": 17])
        #expect(
            RegistrationJourney.failed(young.body, 0) == [
                #"{ "params": { "minimum": 18 }, "policyRequirement": "MINIMUM_NUMBER_VALUE" }"#
            ])
        #expect(harness.submit(young.body, ["IDToken1": 18.0]).status == 401)
    }
}

@Suite struct JourneyFiles {
    static let two = #"""
        {"journeys":[
          {"name":"A","entry":"s","nodes":{"s":{"type":"success"}}},
          {"name":"B","entry":"f","nodes":{"f":{"type":"failure"}}} ]}
        """#

    @Test func aFileHoldsOneJourneyOrMany() throws {
        #expect(try JourneyDefinition.load(fileText: Self.two).map(\.name) == ["A", "B"])
        #expect(
            try JourneyDefinition.load(fileText: #"[{"name":"A","entry":"s","nodes":{"s":{"type":"success"}}}]"#).count
                == 1)
        #expect(
            try JourneyDefinition.load(fileText: #"{"name":"A","entry":"s","nodes":{"s":{"type":"success"}}}"#).count
                == 1)
    }

    @Test func mistakesAreNamed() {
        let cases: [(String, String)] = [
            ("{", "journey \"?\": the file is not JSON"),
            ("[]", "journey \"?\": the file holds no journeys"),
            (
                #"{"journeys":[{"name":"A","entry":"s","nodes":{"s":{"type":"success"}}},{"name":"A","entry":"s","nodes":{"s":{"type":"success"}}}]}"#,
                "journey \"A\": defined twice in the file"
            ),
            (
                #"{"name":"A","entry":"s","nodes":{"s":{"type":"success","outcome":{}}}}"#,
                "journey \"A\", node \"s\": unknown setting \"outcome\""
            ),
            (
                #"{"name":"A","entry":"s","nodes":{"s":{"type":"retryLimit","retryLimit":0,"outcomes":{}}}}"#,
                "journey \"A\", node \"s\": \"retryLimit\" must be an integer from 1 to 100"
            ),
            (
                #"{"name":"A","entry":"s","nodes":{"s":{"type":"dataStoreDecision","outcomes":{"yes":"s"}}}}"#,
                "journey \"A\", node \"s\": a dataStoreDecision node has no outcome \"yes\""
            ),
            (
                #"{"name":"A","entry":"s","nodes":{"s":{"type":"page","callbacks":[{"type":"ChoiceCallback","prompt":"P"}],"outcomes":{"next":"s"}}}}"#,
                "journey \"A\", node \"s\": callback 0: \"choices\" is required"
            ),
            (
                #"{"name":"A","entry":"s","nodes":{"s":{"type":"page","callbacks":[{"type":"TextOutputCallback","message":"m","messageType":3}],"outcomes":{"next":"s"}}}}"#,
                "journey \"A\", node \"s\": callback 0: \"messageType\" must be one of 0, 1, 2, 4"
            ),
            (
                #"{"name":"A","entry":"s","tiemout":5,"nodes":{"s":{"type":"success"}}}"#,
                "journey \"A\": unknown setting \"tiemout\""
            ),
            (
                #"{"name":"A","entry":"s","nodes":{"s":{"type":"pollingWait","exitable":true,"outcomes":{"done":"s"}}}}"#,
                "journey \"A\", node \"s\": missing outcome \"exit\""
            ),
        ]
        for (text, message) in cases {
            do {
                _ = try JourneyDefinition.load(fileText: text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
    }
}
