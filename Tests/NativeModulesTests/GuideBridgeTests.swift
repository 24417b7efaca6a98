import AuthBridgeCore
import NativeSDK
import TestSupport
import Testing

@testable import NativeModules

/// The bridge the ForgeRock guide teaches (variant RN-B, docs/flavors.md), as its JS meets it.
@Suite struct GuideBridgeContract {
    let bridge = ModuleHarness(bridge: .guide, seed: 7)

    @Test func startResolvesAtOnceAndASuccessCarriesAccessInfo() throws {
        #expect(try bridge.call("start") == "SDK is initialized")
        #expect(try bridge.call("logout") == .null, "the guide's form calls logout() first")
        let step = try JSONParser.parse(try #require(try bridge.call("login").stringValue))
        #expect(step["callbacks"]?.arrayValue?.count == 2)
        let success = try bridge.call("next", ModuleHarness.answer(step.compactText, ["demo", "Ch4ng3it!"]))
        #expect(success.objectValue?.keys == ["type", "accessInfo"])
        let accessInfo = try JSONParser.parse(try #require(success["accessInfo"]?.stringValue))
        #expect(
            accessInfo["value"]?.stringValue == bridge.perform { $0.sdk.accessToken?.value },
            "JSON.parse(response.accessInfo) is the token")
        let user = try bridge.call("getUserInfo")
        #expect(user["name"] == "Demo User")
        #expect(user["email"] == "demo@example.com")
    }

    @Test func itsRejectionsAreTheGuidesOwn() throws {
        _ = try bridge.call("start")
        #expect(
            bridge.rejection("next", .string(ModuleHarness.demo))
                == .rejection(
                    code: "Error", message: "UnknownError", detail: "no journey in progress: call login() first"))
        let step = try #require(try bridge.call("login").stringValue)
        if case .rejection(let code, let message, _)? = bridge.rejection("next", "not json") {
            #expect(code == "Error" && message == "UnknownError")
        } else {
            Issue.record("an unreadable payload must reject UnknownError")
        }
        if case .rejection(let code, let message, _)? = bridge.rejection(
            "next", ModuleHarness.answer(step, ["demo", "wrong"]))
        {
            #expect(code == "Error" && message == "LoginFailure")
        } else {
            Issue.record("a wrong password must reject LoginFailure")
        }
    }

    @Test func onlyStringValuesAreApplied() throws {
        _ = try bridge.call("start")
        let step = try #require(try bridge.call("login").stringValue)
        let rejection = bridge.rejection("next", ModuleHarness.answer(step, values: ["demo", 1234]))
        if case .rejection(let code, let message, let detail)? = rejection {
            #expect(code == "Error" && message == "UnknownError")
            #expect(detail?.contains("strings only") == true)
        } else {
            Issue.record("a number where the guide casts to String must reject, got \(String(describing: rejection))")
        }
    }

    @Test func registerAndGetAccessTokenAreDeclaredButNotImplemented() throws {
        _ = try bridge.call("start")
        for method in ["register", "getAccessToken"] {
            guard case .notImplemented(let reason)? = bridge.rejection(method) else {
                Issue.record("\(method) must say it is not implemented")
                continue
            }
            #expect(reason.contains("--bridge sample"))
        }
    }
}
