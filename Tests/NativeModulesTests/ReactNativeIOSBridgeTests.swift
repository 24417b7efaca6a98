import AuthBridgeCore
import EmbeddedAM
import TestSupport
import Testing

@testable import NativeModules
@testable import NativeSDK

@Suite struct RNiOSLogin {
    @Test func startResolvesTheIOSString() throws {
        #expect(try ModuleHarness().call("start") == "SDK initialized")
    }

    @Test func loginResolvesAStepString() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("start")
        let result = try bridge.call("login")
        guard case .string(let text) = result else {
            Issue.record("login must resolve a string, got \(result.typeName)")
            return
        }
        let step = try JSONParser.parse(text)
        #expect(step.objectValue?.keys == ["authId", "authServiceId", "stage", "header", "callbacks"])
        #expect(step["authServiceId"]?.stringValue?.count == 36)
        #expect(step["callbacks"]?.arrayValue?.map { $0["type"] } == ["NameCallback", "PasswordCallback"])
        #expect(step["description"] == nil)
    }

    @Test func goodCredentialsResolveLoginSuccessObject() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("start")
        let result = try bridge.login()
        #expect(result.objectValue?.keys == ["type", "tokens"])
        #expect(result["type"] == "LoginSuccess")
        let tokensText = result["tokens"]?.stringValue ?? ""
        #expect(tokensText.hasPrefix("{\n  \"value\" : \""))
        let tokens = try JSONParser.parse(tokensText)
        #expect(
            tokens.objectValue?.keys == [
                "value", "successUrl", "realm", "expiresIn", "scope", "tokenType",
                "refreshToken", "idToken", "authenticatedTimestamp", "sessionToken",
            ])
        #expect(tokens["tokenType"] == "Bearer")
        #expect(tokens["scope"] == "openid profile email")
        #expect(tokens["authenticatedTimestamp"]?.doubleValue == bridge.perform { $0.clock.now } - 978_307_200)
        #expect(tokens["sessionToken"]?.stringValue == bridge.perform { $0.sdk.tokens.ssoToken })
    }

    @Test func wrongPasswordRejectsLoginFailure() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("start")
        let error = bridge.rejection(
            "next", ModuleHarness.answer(try bridge.call("login").stringValue!, ["demo", "bad"]))
        #expect(error == .rejection(code: "Error", message: "LoginFailure", detail: "Login failure"))
        // The retry pattern of the sample: restart and succeed.
        #expect(try bridge.login()["type"] == "LoginSuccess")
    }

    @Test func nextWithoutJourney() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("start")
        let error = bridge.rejection("next", #"{"callbacks":[]}"#)
        guard case .rejection(let code, let message, _)? = error else {
            Issue.record("expected a rejection")
            return
        }
        #expect(code == "Error")
        #expect(message == "UnkownError")
    }

    @Test func userInfoAndAccessToken() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("start")
        _ = try bridge.login()
        let info = try bridge.call("getUserInfo")
        #expect(info["name"] == "Demo User")
        #expect(info["email"] == "demo@example.com")
        let tokenString = try bridge.call("getAccessToken")
        let token = try JSONParser.parse(tokenString.stringValue!)
        #expect(token["tokenType"] == "Bearer")
        #expect(!tokenString.stringValue!.contains("\n"))
    }

    @Test func alreadyAuthenticatedThenLogoutAndLoginAgain() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("start")
        _ = try bridge.login()
        #expect(
            bridge.rejection("login")
                == .rejection(code: "Error", message: "User is already authenticated", detail: nil))
        #expect(try bridge.call("logout") == .null)
        #expect(
            bridge.rejection("getUserInfo")
                == .rejection(
                    code: "error", message: "Invalid SDK state: No current user for which to request user info",
                    detail: nil))
        #expect(
            bridge.rejection("getAccessToken")
                == .rejection(
                    code: "error", message: "Invalid SDK state: No current user for which to request access tokens",
                    detail: nil))
        #expect(try bridge.login()["type"] == "LoginSuccess")
    }

    @Test func logoutEndsSessionAndRevokesTokens() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("start")
        _ = try bridge.login()
        let sso = bridge.perform { $0.sdk.tokens.ssoToken! }
        let access = bridge.perform { $0.sdk.accessToken!.value }
        _ = try bridge.call("logout")
        #expect(bridge.perform { $0.embedded.sessions.find(sso) } == nil)
        #expect(bridge.perform { $0.embedded.userInfo(accessToken: access).status } == 401)
    }

    @Test func loginBeforeStartIsRejected() {
        let bridge = ModuleHarness()
        #expect(
            bridge.rejection("login")
                == .rejection(
                    code: "Error", message: "Invalid SDK State: initialize SDK using FRAuth.start() first", detail: nil)
        )
    }

    @Test func registerCreatesAUserWhoAppearsInUserInfo() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("start")
        let step = try bridge.call("register").stringValue!
        let result = try bridge.call(
            "next",
            ModuleHarness.answer(
                step,
                values: [
                    "sam", "Sam", "Smith", "sam@example.com", false, true, "Passw0rdXYZ",
                    ["What's your favorite color?", "Blue"],
                    ["Who was your first employer?", "ACME"], true,
                ]))
        #expect(result["type"] == "LoginSuccess")
        #expect(try bridge.call("getUserInfo")["name"] == "Sam Smith")
        _ = try bridge.call("logout")
        #expect(try bridge.login("sam", "Passw0rdXYZ")["type"] == "LoginSuccess")
    }

    @Test func accessTokenRefreshesNearExpiry() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("start")
        _ = try bridge.login()
        let before = bridge.perform { $0.sdk.accessToken! }
        bridge.advanceClock(by: 3599 - 60 - 1)
        #expect(bridge.perform { $0.sdk.accessToken } == before)
        _ = try bridge.call("getAccessToken")
        #expect(bridge.perform { $0.embedded.refreshCount } == 0)
        bridge.advanceClock(by: 2)
        _ = try bridge.call("getAccessToken")
        #expect(bridge.perform { $0.embedded.refreshCount } == 1)
        #expect(bridge.perform { $0.sdk.accessToken!.refreshToken } != before.refreshToken)
        #expect(try bridge.call("getUserInfo")["name"] == "Demo User")
    }
}

@Suite struct RNiOSNextPayloads {
    func started() throws -> (ModuleHarness, String) {
        let bridge = ModuleHarness()
        _ = try bridge.call("start")
        return (bridge, try bridge.call("login").stringValue!)
    }

    func detail(_ error: BridgeError?) -> String? {
        guard case .rejection(let code, let message, let detail)? = error, code == "Error",
            message == "Failed to parse the JSON received from UI layer"
        else { return nil }
        return detail
    }

    @Test func notJSON() throws {
        let (bridge, _) = try started()
        #expect(detail(bridge.rejection("next", "{not json"))?.hasPrefix("the payload is not JSON") == true)
    }

    @Test func aNumber() throws {
        let (bridge, _) = try started()
        #expect(detail(bridge.rejection("next", "5")) == "the payload must be a JSON object (a step), got integer")
    }

    @Test func callbacksOfTheWrongShape() throws {
        let (bridge, _) = try started()
        #expect(detail(bridge.rejection("next", #"{"callbacks":{}}"#)) == "callbacks must be an array, got object")
        #expect(
            detail(bridge.rejection("next", #"{"callbacks":[{"input":[{"value":"x"}]},{}]}"#))
                == "missing callbacks[0].input[0].name (a string)")
        #expect(
            detail(
                bridge.rejection("next", #"{"callbacks":[{},{"input":[{"name":"IDToken2","value":[1]}, {"name":7}]}]}"#)
            ) == "callbacks[1].input[1].name must be a string, got integer")
        #expect(
            detail(bridge.rejection("next", #"{"callbacks":[{},{"input":"x"}]}"#))
                == "callbacks[1].input must be an array, got string")
        #expect(
            detail(bridge.rejection("next", #"{"callbacks":[{"_id":"0"},{}]}"#))
                == "callbacks[0]._id must be an integer, got string")
        #expect(
            detail(bridge.rejection("next", #"{"callbacks":[5,{}]}"#)) == "callbacks[0] must be an object, got integer")
        #expect(
            detail(bridge.rejection("next", #"{"authId":5,"callbacks":[]}"#)) == "authId must be a string, got integer")
    }

    @Test func moreOrFewerCallbacksThanTheStep() throws {
        let (bridge, _) = try started()
        #expect(
            detail(bridge.rejection("next", #"{"callbacks":[{}]}"#)) == "the step has 2 callbacks, the payload has 1")
        #expect(
            detail(bridge.rejection("next", #"{"callbacks":[{},{},{}]}"#))
                == "the step has 2 callbacks, the payload has 3")
    }

    @Test func stateSurvivesBadPayloads() throws {
        let (bridge, step) = try started()
        _ = bridge.rejection("next", "garbage")
        _ = bridge.rejection("next", #"{"callbacks":[]}"#)
        #expect(try bridge.call("next", ModuleHarness.answer(step, ["demo", "Ch4ng3it!"]))["type"] == "LoginSuccess")
    }

    @Test func wrongArgumentsAreParamErrors() throws {
        let (bridge, _) = try started()
        #expect(
            bridge.rejection("next")
                == .invalidParams(reason: "next takes 1 argument (the step payload), got 0", param: nil))
        #expect(
            bridge.rejection("next", 5)
                == .invalidParams(
                    reason: "the step payload must be a string, got integer", param: "0",
                    read: JSONReadError(path: JSONPath("the step payload"), expected: .string, found: .kind(.integer))))
        #expect(bridge.rejection("login", "x") == .invalidParams(reason: "login takes no arguments, got 1", param: nil))
    }

    @Test func valuesAreAppliedByPositionWithTheirJSONType() throws {
        let (bridge, step) = try started()
        // The iOS bridge ignores the payload's type strings and echoed authId; only positions count.
        let payload =
            #"{"authId":"ignored","callbacks":[{"type":"Whatever","input":[{"name":"x","value":"demo"}]},{"input":[{"name":"y","value":"Ch4ng3it!"}]}]}"#
        _ = step
        #expect(try bridge.call("next", .string(payload))["type"] == "LoginSuccess")
    }

    @Test func nullValueLeavesTheInputAlone() throws {
        let (bridge, _) = try started()
        let payload =
            #"{"callbacks":[{"input":[{"name":"IDToken1","value":null}]},{"input":[{"name":"IDToken2","value":"Ch4ng3it!"}]}]}"#
        #expect(
            bridge.rejection("next", .string(payload))
                == .rejection(code: "Error", message: "LoginFailure", detail: "Login failure"))
    }

    @Test func flexibleTypes() {
        #expect(CallbackValues.flexible("a") == "a")
        #expect(CallbackValues.flexible(2) == 2)
        #expect(CallbackValues.flexible(2.0) == 2)
        #expect(CallbackValues.flexible(2.5) == 2.5)
        #expect(CallbackValues.flexible(true) == true)
        #expect(CallbackValues.flexible(["a": 1]) == "")
    }
}
