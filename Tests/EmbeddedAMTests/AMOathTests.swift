import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's OATH nodes, registration then verification, with codes computed from the URI the step
/// shows (as an authenticator app does) on the harness's virtual clock. The journey: username →
/// verifier; not registered → registration → verifier; a wrong code → the marker; the recovery
/// code option → the Recovery Code Collector Decision.
struct AMOathTests {
    typealias T = AMMoreNodesTests
    typealias NodeList = [(id: String, type: String, connections: JSONObject, config: JSONObject)]

    static func nodes(registration: JSONObject = [:], verifier: JSONObject = [:]) -> NodeList {
        var outcomes: JSONObject = [
            "successOutcome": T.success, "failureOutcome": "marker", "notRegisteredOutcome": "reg",
        ]
        if verifier["isRecoveryCodeAllowed"] == true { outcomes["recoveryCodeOutcome"] = "rc" }
        return [
            ("n", "OathTokenVerifierNode", outcomes, verifier),
            ("reg", "OathRegistrationNode", ["successOutcome": "show", "failureOutcome": T.failure], registration),
            ("show", "RecoveryCodeDisplayNode", ["outcome": "n"], [:]),
            ("rc", "RecoveryCodeCollectorDecisionNode", ["true": T.success, "false": T.failure], [:]),
        ]
    }

    /// What the phone would hold after scanning the step's URI.
    struct Scanned {
        var uri: String
        var secret: [UInt8]
        var parameters: [String: String]

        init(_ step: JSONValue) throws {
            uri = try #require(T.output(step, 2, "value")?.stringValue)
            let query = try #require(uri.split(separator: "?", maxSplits: 1).last)
            parameters = Dictionary(
                query.split(separator: "&").map {
                    let pair = $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
                }, uniquingKeysWith: { first, _ in first })
            secret = try Base32.decode(parameters["secret"] ?? "")
        }

        func totp(
            _ h: Harness, offset: Double = 0, digits: OATH.Digits = .six, algorithm: OATH.Algorithm = .sha1
        )
            -> String
        {
            OATH.totp(
                secret: secret, unixSeconds: Int64(h.clock.now + offset),
                period: Int(parameters["period"] ?? "30") ?? 30,
                digits: digits, algorithm: algorithm)
        }
    }

    /// Registers demo's device and answers "Next": the scanned URI and the step after it.
    static func register(_ h: Harness) throws -> (Scanned, ServerReply) {
        let step = T.begin(h).body
        #expect(
            T.types(step) == [
                "TextOutputCallback", "TextOutputCallback", "HiddenValueCallback", "ConfirmationCallback",
            ])
        let scanned = try Scanned(step)
        return (scanned, h.submit(step, ["IDToken4": 0]))
    }

    static func verify(_ h: Harness, _ step: JSONValue, code: String) -> ServerReply {
        h.submit(step, ["IDToken1": .string(code)])
    }

    static func signedIn(_ reply: ServerReply) -> Bool { reply.body["tokenId"] != nil }

    @Test func registrationShowsAMsStepAndTheVerifierAcceptsTheAppsCode() throws {
        let h = try T.harness(Self.nodes())
        let step = T.begin(h).body
        #expect(
            T.output(step, 0, "message")
                == "Scan the QR code image below with the ForgeRock Authenticator app to register your device with your login."
        )
        #expect(T.output(step, 1, "messageType") == "4")
        let script = try #require(T.output(step, 1, "message")?.stringValue)
        #expect(script.hasPrefix("window.QRCodeReader.createCode({") && script.contains("otpauth\\x3A\\x2F\\x2Ftotp"))
        #expect(T.output(step, 2, "id") == "mfaDeviceRegistration")
        #expect(T.output(step, 3, "options") == ["Next"])
        let scanned = try Scanned(step)
        #expect(scanned.uri.hasPrefix("otpauth://totp/ForgeRock:demo?secret="))
        #expect(scanned.secret.count == 16, "32 hex digits by default")
        #expect(scanned.parameters["period"] == "30" && scanned.parameters["digits"] == "6")
        #expect(scanned.parameters["b"] == "032b75" && scanned.parameters["image"] == "")
        #expect(scanned.parameters["uid"] == Base64URL.encode(Array("demo".utf8)))
        #expect(scanned.parameters["algorithm"] == nil, "SHA1 is not written")
        #expect(h.am.users.find(username: "demo")?.devices.oath.isEmpty == true, "nothing saved before Next")

        let codes = h.submit(step, ["IDToken4": 0]).body
        #expect(T.types(codes) == ["TextOutputCallback"], "the recovery codes")
        let device = try #require(h.am.users.find(username: "demo")?.devices.oath.first)
        #expect(device.sharedSecret == scanned.secret)
        #expect(device.recoveryCodeDigests.count == 10)
        let verifier = h.submit(codes, [:]).body
        #expect(T.types(verifier) == ["NameCallback", "ConfirmationCallback"])
        #expect(T.output(verifier, 0, "prompt") == "Enter verification code")
        #expect(T.output(verifier, 1, "options") == ["Submit"])
        #expect(Self.signedIn(Self.verify(h, verifier, code: scanned.totp(h))))
    }

    @Test func aWrongCodeOrLengthFailsAndAUsedCodeIsRefused() throws {
        let h = try T.harness(Self.nodes(registration: ["generateRecoveryCodes": false]))
        let (scanned, verifier) = try Self.register(h)
        #expect(T.reachedMarker(Self.verify(h, verifier.body, code: "000000")) || scanned.totp(h) == "000000")
        #expect(T.reachedMarker(Self.verify(h, T.begin(h).body, code: "12345")), "5 digits")
        #expect(T.reachedMarker(Self.verify(h, T.begin(h).body, code: "")))
        let code = scanned.totp(h)
        #expect(Self.signedIn(Self.verify(h, T.begin(h).body, code: code)))
        #expect(T.reachedMarker(Self.verify(h, T.begin(h).body, code: code)), "the same step's code again")
        h.clock.advance(by: 30)
        #expect(Self.signedIn(Self.verify(h, T.begin(h).body, code: scanned.totp(h))), "the next step's code")
    }

    /// `totpTimeSteps` 1: a code one step ahead of the clock is accepted, two steps off is not.
    /// The accepted step becomes the device's drift: the clock's own step is then the last login's
    /// (refused), and a step later the app's lagging code is older than the window's last login
    /// (refused), while the code one ahead is current again.
    @Test func theWindowEdgesAndTheDriftOnTheVirtualClock() throws {
        let h = try T.harness(
            Self.nodes(registration: ["generateRecoveryCodes": false], verifier: ["totpTimeSteps": 1]))
        let (scanned, verifier) = try Self.register(h)
        #expect(T.reachedMarker(Self.verify(h, verifier.body, code: scanned.totp(h, offset: 60))), "two steps ahead")
        #expect(T.reachedMarker(Self.verify(h, T.begin(h).body, code: scanned.totp(h, offset: -60))), "two behind")
        #expect(Self.signedIn(Self.verify(h, T.begin(h).body, code: scanned.totp(h, offset: 30))), "one ahead")
        let device = try #require(h.am.users.find(username: "demo")?.devices.oath.first)
        #expect(device.clockDriftSeconds == 30)
        #expect(device.lastLogin == (Int64(h.clock.now) / 30 + 1) * 30)
        #expect(T.reachedMarker(Self.verify(h, T.begin(h).body, code: scanned.totp(h))), "the drifted step is used")
        h.clock.advance(by: 30)
        #expect(T.reachedMarker(Self.verify(h, T.begin(h).body, code: scanned.totp(h))), "older, in the window")
        #expect(Self.signedIn(Self.verify(h, T.begin(h).body, code: scanned.totp(h, offset: 30))))
    }

    @Test func aCodeOneStepBehindIsAcceptedOnAFreshDevice() throws {
        let h = try T.harness(
            Self.nodes(registration: ["generateRecoveryCodes": false], verifier: ["totpTimeSteps": 1]))
        let (scanned, verifier) = try Self.register(h)
        #expect(Self.signedIn(Self.verify(h, verifier.body, code: scanned.totp(h, offset: -30))))
        #expect(h.am.users.find(username: "demo")?.devices.oath.first?.clockDriftSeconds == -30)
    }

    @Test func maximumAllowedClockDriftRefusesACodeTooFarOff() throws {
        let h = try T.harness(
            Self.nodes(
                registration: ["generateRecoveryCodes": false],
                verifier: ["totpTimeSteps": 3, "maximumAllowedClockDrift": 2]))
        let (scanned, verifier) = try Self.register(h)
        #expect(T.reachedMarker(Self.verify(h, verifier.body, code: scanned.totp(h, offset: 90))), "3 steps > 2")
        #expect(Self.signedIn(Self.verify(h, T.begin(h).body, code: scanned.totp(h, offset: 60))))
    }

    @Test func eightDigitSHA256Codes() throws {
        let h = try T.harness(
            Self.nodes(
                registration: [
                    "generateRecoveryCodes": false, "passwordLength": "EIGHT_DIGITS",
                    "totpHashAlgorithm": "HMAC_SHA256",
                    "totpTimeInterval": 60,
                ], verifier: ["totpHashAlgorithm": "HMAC_SHA256", "totpTimeInterval": 60]))
        let (scanned, verifier) = try Self.register(h)
        #expect(scanned.parameters["algorithm"] == "SHA256" && scanned.parameters["digits"] == "8")
        #expect(scanned.parameters["period"] == "60")
        #expect(
            T.reachedMarker(Self.verify(h, verifier.body, code: scanned.totp(h, digits: .eight))),
            "an SHA-1 code is not the SHA-256 one")
        #expect(
            Self.signedIn(
                Self.verify(h, T.begin(h).body, code: scanned.totp(h, digits: .eight, algorithm: .sha256))))
    }

    @Test func hotpLooksAheadWithinTheWindowAndMovesTheCounter() throws {
        let h = try T.harness(
            Self.nodes(
                registration: ["generateRecoveryCodes": false, "algorithm": "HOTP"],
                verifier: ["algorithm": "HOTP", "hotpWindowSize": 3]))
        let (scanned, verifier) = try Self.register(h)
        #expect(scanned.uri.hasPrefix("otpauth://hotp/ForgeRock:demo?") && scanned.parameters["counter"] == "0")
        func code(_ counter: UInt64) -> String { OATH.hotp(secret: scanned.secret, counter: counter, digits: .six) }
        #expect(Self.signedIn(Self.verify(h, verifier.body, code: code(2))), "counter 2 is within 0…3")
        #expect(h.am.users.find(username: "demo")?.devices.oath.first?.counter == 3)
        #expect(T.reachedMarker(Self.verify(h, T.begin(h).body, code: code(2))), "spent")
        #expect(T.reachedMarker(Self.verify(h, T.begin(h).body, code: code(7))), "beyond 3…6")
        #expect(Self.signedIn(Self.verify(h, T.begin(h).body, code: code(6))))
    }

    @Test func aRecoveryCodeWorksOnce() throws {
        let h = try T.harness(Self.nodes(verifier: ["isRecoveryCodeAllowed": true]))
        let (_, shown) = try Self.register(h)
        let script = try #require(T.output(shown.body, 0, "message")?.stringValue)
        // As the JS SDK's recovery-code parser reads them.
        let codes = script.split(separator: "\n").compactMap { line -> String? in
            let text = line.trimmingCharacters(in: " ")
            guard text.hasPrefix("\""), text.hasSuffix("\\n\" +") else { return nil }
            let inner = text.dropFirst().dropLast(5)
            return inner.count == 10 && inner.allSatisfy({ $0.isLetter || $0.isNumber }) ? String(inner) : nil
        }
        #expect(codes.count == 10)
        #expect(script.contains("<em>OATH Device</em>"))
        let verifier = h.submit(shown.body, [:]).body
        #expect(T.output(verifier, 1, "options") == ["Submit", "Use recovery code"])
        let collector = h.submit(verifier, ["IDToken2": 1]).body
        #expect(T.types(collector) == ["NameCallback"] && T.output(collector, 0, "prompt") == "Recovery Code")
        #expect(Self.signedIn(h.submit(collector, ["IDToken1": .string(codes[3])])))
        #expect(h.am.users.find(username: "demo")?.devices.oath.first?.recoveryCodeDigests.count == 9)
        let again = h.submit(T.begin(h).body, ["IDToken2": 1]).body
        #expect(h.submit(again, ["IDToken1": .string(codes[3])]).status == 401, "spent")
        let wrong = h.submit(T.begin(h).body, ["IDToken2": 1]).body
        #expect(h.submit(wrong, ["IDToken1": "notacode00"]).status == 401)
    }

    @Test func notRegisteredSetsTheMfaMethodAndPostponedStorageSavesOnVerification() throws {
        let h = try T.harness(Self.nodes(registration: ["postponeDeviceProfileStorage": true]))
        let (scanned, verifier) = try Self.register(h)
        #expect(T.types(verifier.body) == ["NameCallback", "ConfirmationCallback"], "no codes: nothing saved yet")
        #expect(h.am.users.find(username: "demo")?.devices.oath.isEmpty == true)
        #expect(Self.signedIn(Self.verify(h, verifier.body, code: scanned.totp(h))))
        #expect(h.am.users.find(username: "demo")?.devices.oath.first?.sharedSecret == scanned.secret)
    }

    @Test func anotherAnswerThanNextStartsOverWithANewSecret() throws {
        let h = try T.harness(Self.nodes())
        let step = T.begin(h).body
        let again = h.submit(step, ["IDToken4": 1]).body
        #expect(try Scanned(again).secret != Scanned(step).secret)
        #expect(h.am.users.find(username: "demo")?.devices.oath.isEmpty == true)
    }

    @Test func badSettingsAreRefusedWhenLoaded() {
        for (config, message) in [
            (["passwordLength": "SEVEN_DIGITS"] as JSONObject, "\"passwordLength\" must be one of"),
            (["algorithm": "MOTP"], "\"algorithm\" must be one of"),
            (["totpTimeInterval": 0], "\"totpTimeInterval\" must be an integer from 1"),
        ] {
            do {
                _ = try AMExports.load([
                    AMExports.tree(
                        "T", entry: "n", [("n", "OathRegistrationNode", ["successOutcome": T.success], config)])
                ])
                Issue.record("loaded \(config)")
            } catch {
                #expect(error.description.contains(message), "\(error.description)")
            }
        }
    }

    @Test func theAccountNameAttributeAndEscaping() throws {
        let h = try T.harness(
            Self.nodes(registration: ["accountName": "EMAIL_ADDRESS", "issuer": "Acme Bank", "bgColor": "#ff0000"]))
        let uri = try Scanned(T.begin(h).body)
        #expect(uri.uri.hasPrefix("otpauth://totp/Acme%20Bank:demo@example.com?"))
        #expect(uri.parameters["b"] == "ff0000")
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var text = self
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return text
    }
}

/// A registered OATH device survives `--state-dir` whole (secret, last step, drift, recovery-code
/// digests), and the saved text holds its secret in neither of the forms the URI or AM show it.
@Suite struct OathDeviceSavedState {
    typealias T = AMMoreNodesTests

    @Test func theDeviceItsLastStepAndItsRecoveryCodesSurviveAReload() throws {
        let h = try T.harness(AMOathTests.nodes())
        let (scanned, shown) = try AMOathTests.register(h)
        let code = scanned.totp(h)
        #expect(AMOathTests.signedIn(AMOathTests.verify(h, h.submit(shown.body, [:]).body, code: code)))
        let before = try #require(h.am.users.find(username: "demo")?.devices.oath.first)
        let restored = try EmbeddedAMSavedState.reload(h.am, clock: h.clock)
        let after = try #require(restored.users.find(username: "demo")?.devices.oath.first)
        #expect(after == before)
        #expect(after.recoveryCodeDigests.count == 10)
        let text = EmbeddedAMSavedState.text(h.am)
        #expect(!text.contains(Base32.encode(scanned.secret, padding: false)), "the secret is not kept as base32")
        #expect(!text.contains(before.hexSecret))
    }

    @Test func aDamagedDeviceIsRefusedNamingTheMember() throws {
        var json = try #require(
            OathDeviceProfile(
                record: DeviceRecord(uuid: "u", deviceName: "OATH Device", createdDate: 1), sharedSecret: [1]
            ).stateJSON.objectValue)
        json["recoveryCodes"] = ["AAAA"]
        #expect(throws: StateError("oath[0].recoveryCodes[0]: not the SHA-256 of a recovery code")) {
            try OathDeviceProfile(state: StateReader(.object(json), path: "oath[0]"))
        }
        json["recoveryCodes"] = []
        json["sharedSecret"] = ""
        #expect(throws: StateError("oath[0].sharedSecret: must not be empty")) {
            try OathDeviceProfile(state: StateReader(.object(json), path: "oath[0]"))
        }
    }
}
