import AuthBridgeCore
import NativeModules
import TestSupport
import Testing

/// RNPingOath, RNPingLogger and RNPingProtect as the successor SDK's JS calls them
/// (docs/ping-modules.md): OATH clients over the app phone's credentials, codes on RFC 4226's
/// published vectors, rejections per platform; loggers and the Signals SDK.
@Suite struct RNPingOathTests {
    /// RFC 4226 appendix D: the secret "12345678901234567890" and its HOTP values at counters 0, 1, 2.
    static let rfcHOTP = "otpauth://hotp/Acme:ada?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=0"
    static let rfcValues = ["755224", "287082", "359152"]

    static func rejection(_ error: BridgeError?) -> (String, String?, String)? {
        switch error {
        case .typedRejection(let code, let message, let userInfo)?:
            return (code, userInfo["type"]?.stringValue, message)
        case .rejection(let code, let message, _)?: return (code, nil, message)
        default: return nil
        }
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func hotpCodesFollowRFC4226AsEachPlatformCounts(flavor: Flavor) throws {
        let app = ModuleHarness(flavor: flavor)
        let handle = try app.call("RNPingOath.create", [:])
        let credential = try app.call("RNPingOath.addCredentialFromUri", handle, .string(Self.rfcHOTP))
        let id = try #require(credential["id"])
        #expect(credential["type"] == "HOTP" && credential["counter"] == 0)
        // iOS shows the code at the stored counter, Android at the counter plus one.
        let first = flavor == .reactNativeIOS ? 0 : 1
        #expect(try app.call("RNPingOath.generateCode", handle, id) == .string(Self.rfcValues[first]))
        #expect(
            try app.call("RNPingOath.generateCodeWithValidity", handle, id)
                == [
                    "code": .string(Self.rfcValues[first + 1]), "timeRemaining": -1, "counter": 2, "progress": 0.0,
                    "totalPeriod": 0,
                ])
        #expect(try app.call("RNPingOath.getCredential", handle, id)["counter"] == 2)
    }

    @Test func totpCodesAreTheDaemonClocksWithTheTimeLeftInThePeriod() throws {
        let app = ModuleHarness()
        let handle = try app.call("RNPingOath.create", [:])
        let uri = "otpauth://totp/Acme:ada?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&period=30"
        let id = try #require(try app.call("RNPingOath.addCredentialFromUri", handle, .string(uri))["id"])
        app.advanceClock(by: 10)
        let now = app.perform { $0.clock.now }
        let expected = OATH.totp(
            secret: Array("12345678901234567890".utf8), unixSeconds: Int64(now), period: 30, digits: .six)
        let info = try app.call("RNPingOath.generateCodeWithValidity", handle, id)
        #expect(info["code"] == .string(expected) && info["counter"] == -1 && info["totalPeriod"] == 30)
        #expect(info["timeRemaining"]?.intValue == 30 - Int64(now) % 30)
    }

    @Test func rejectionsAreEachPlatformsTexts() throws {
        let ios = ModuleHarness(flavor: .reactNativeIOS)
        let android = ModuleHarness(flavor: .reactNativeAndroid)
        #expect(
            Self.rejection(ios.rejection("RNPingOath.getCredentials", "h"))!
                == ("OATH_STATE_ERROR", "state_error", "OATH client handle not found. The client may have been closed.")
        )
        #expect(
            Self.rejection(android.rejection("RNPingOath.getCredentials", "h"))!
                == ("OATH_STATE_ERROR", "state_error", "No OATH client found for handle h"))
        let iosHandle = try ios.call("RNPingOath.create", [:])
        let androidHandle = try android.call("RNPingOath.create", [:])
        let badType = "otpauth://sotp/A:b?secret=GE"
        #expect(
            Self.rejection(ios.rejection("RNPingOath.addCredentialFromUri", iosHandle, .string(badType)))!
                == ("OATH_INVALID_URI", "argument_error", "Unknown OATH type: sotp"))
        // Android's mapper picks OATH_INVALID_URI only for a message that mentions a URI.
        #expect(
            Self.rejection(android.rejection("RNPingOath.addCredentialFromUri", androidHandle, .string(badType)))!
                == ("OATH_INVALID_PARAMETER", "argument_error", "Invalid OATH type: sotp, expected: totp or hotp"))
        let longPeriod = "otpauth://totp/A:b?secret=GEZDGNBV&period=600"
        #expect(
            Self.rejection(ios.rejection("RNPingOath.addCredentialFromUri", iosHandle, .string(longPeriod)))!
                == ("OATH_INVALID_PARAMETER", "argument_error", "Invalid period value: 600. Must be between 1 and 300"))
        #expect(
            try android.call("RNPingOath.addCredentialFromUri", androidHandle, .string(longPeriod))["period"] == 600)
        #expect(
            Self.rejection(ios.rejection("RNPingOath.saveCredential", iosHandle, ["accountName": "b"]))!
                == ("OATH_MISSING_PARAMETER", nil, "Missing required field: issuer"))
        #expect(
            Self.rejection(android.rejection("RNPingOath.create", ["policyEvaluatorId": "x"]))!
                == ("OATH_INITIALIZATION_FAILED", "argument_error", "Unresolvable policyEvaluatorId: x"))
        if case .invalidParams? = ios.rejection("RNPingOath.generateCode", iosHandle) {
        } else {
            Issue.record("a missing argument is -32602")
        }
    }

    /// The phone is untampered (score 0): `{"deviceTampering":{"score":0}}` fails on a client that
    /// checks it, locking the credential and refusing its codes, and holds on one that does not.
    @Test func aFailingPolicyLocksTheCredentialForClientsThatCheckIt() throws {
        let app = ModuleHarness(flavor: .reactNativeAndroid)
        let evaluator = try app.call(
            "RNPingOath.registerOathPolicyEvaluator", ["policies": ["biometricAvailable"]], "e1")
        #expect(
            try app.call("RNPingOath.configureOathPolicyEvaluator", evaluator) == ["policies": ["biometricAvailable"]])
        let lenient = try app.call("RNPingOath.create", ["policyEvaluatorId": evaluator])
        let strict = try app.call("RNPingOath.create", [:])
        let policies = Base64URL.encode(Array(#"{"deviceTampering":{"score":0}}"#.utf8))
        let uri = JSONValue.string("otpauth://totp/A:b?secret=GEZDGNBV&policies=\(policies)")
        #expect(
            Self.rejection(app.rejection("RNPingOath.addCredentialFromUri", strict, uri))?.0 == "OATH_POLICY_VIOLATION")
        let id = try #require(try app.call("RNPingOath.addCredentialFromUri", lenient, uri)["id"])
        let locked = try #require(try app.call("RNPingOath.getCredentials", strict).arrayValue?.first)
        #expect(locked["isLocked"] == true && locked["lockingPolicy"] == "deviceTampering")
        #expect(Self.rejection(app.rejection("RNPingOath.generateCode", strict, id))?.0 == "OATH_CREDENTIAL_LOCKED")
        #expect(try app.call("RNPingOath.getCredentials", lenient).arrayValue?.first?["isLocked"] == false)
        #expect(try app.call("RNPingOath.generateCode", lenient, id).stringValue?.count == 6)
    }

    @Test func theCredentialsAreOnTheAppsPhone() throws {
        let app = ModuleHarness()
        let handle = try app.call("RNPingOath.create", [:])
        _ = try app.call("RNPingOath.addCredentialFromUri", handle, .string(Self.rfcHOTP))
        let phone = app.perform { world in world.phones.phone(id: "app") }
        #expect(phone?.oath.map(\.id) == ["Acme:ada"])
        #expect(phone?.oath.first?.app?.store == "keychain:com.pingidentity.oath")
    }

    @Test func loggersAreRegisteredSynchronouslyAndAnUnknownSyncIsIgnored() throws {
        let app = ModuleHarness(flavor: .reactNativeAndroid)
        let id = try app.call("RNPingLogger.registerLogger", ["level": "STANDARD"])
        #expect(id.stringValue == id.stringValue?.lowercased() && id.stringValue?.count == 36)
        #expect(try app.call("RNPingLogger.registerLogger", ["level": "WARN"], "mine") == "mine")
        #expect(try app.call("RNPingLogger.syncLogger", ["id": "nobody", "level": "NONE"]) == .null)
        #expect(try app.call("RNPingLogger.syncLogger", ["id": id, "level": "loud"]) == .null)
        #expect(try app.call("RNPingOath.create", ["loggerId": "nobody"]).stringValue != nil)
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func protectPausesAfterInitializeAndHasNoDaVinciCollector(flavor: Flavor) throws {
        let app = ModuleHarness(flavor: flavor)
        let ios = flavor == .reactNativeIOS
        if ios {
            #expect(
                Self.rejection(app.rejection("RNPingProtect.pauseBehavioralData", [:]))!
                    == ("PROTECT_COLLECT_ERROR", "auth_error", "PingOneSignals shared instance is not available"))
        } else {
            #expect(try app.call("RNPingProtect.pauseBehavioralData", [:]) == .null)
        }
        #expect(try app.call("RNPingProtect.initialize", ["envId": "e"], [:]) == .null)
        #expect(try app.call("RNPingProtect.pauseBehavioralData", ["loggerId": "x"]) == .null)
        #expect(try app.call("RNPingProtect.resumeBehavioralData", [:]) == .null)
        #expect(
            Self.rejection(app.rejection("RNPingProtect.collectForDaVinci", "d", [:], [:]))!
                == (
                    "PROTECT_COLLECTOR_NOT_FOUND", "state_error",
                    ios
                        ? "No active DaVinci collectors found for id d."
                        : "No active Protect collector found for DaVinci d at index 0."
                ))
    }
}
