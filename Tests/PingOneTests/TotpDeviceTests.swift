import AuthBridgeCore
import EmbeddedAM
import EmulatedDevice
import IdentityServer
import PingOne
import Testing

/// `sign-on-mfa` with PingOne MFA's TOTP device: registered through DEVICE_REGISTRATION, its
/// `otpauth://` URI in a QR_CODE field scanned by the emulated phone, then offered by
/// DEVICE_AUTHENTICATION and its codes checked with AM's OATH rules.
struct TotpDeviceTests {
    /// Signs `demo` on and presses "Add a device", then chooses TOTP: the pairing form.
    static func pairing(_ client: DaVinciClient) -> JSONValue? {
        client.start(flow: "sign-on-mfa")
        client.next(action: "SIGNON", ["username": "demo", "password": "Ch4ng3it!"])
        client.next(action: "ADD_DEVICE", eventType: "action")
        guard client.formName == "Register MFA Device" else { return nil }
        client.next(action: "NEXT", ["newDevice": "TOTP"])
        return client.fields.first { $0["type"] == "QR_CODE" }
    }

    /// Registers a TOTP device for `demo` and scans it into a phone; the clock moves on a step.
    static func registered(_ client: DaVinciClient) throws -> Phone {
        var phone = Phone(id: "phone-1", owner: "demo", deviceToken: "token-1")
        let qr = try #require(pairing(client))
        try phone.scanOath(qr["content"]?.stringValue ?? "")
        let done = client.next(action: "VERIFY", ["otp": .string(code(phone, client))])
        #expect(done.code != nil)
        client.clock.advance(by: 30)
        return phone
    }

    /// What the phone's authenticator app shows now.
    static func code(_ phone: Phone, _ client: DaVinciClient) -> String {
        phone.oath.first?.code(at: client.clock.now) ?? ""
    }

    /// From a fresh start to the passcode form for the user's authenticator app.
    static func choosingTheApp(_ client: DaVinciClient) -> JSONValue? {
        client.start(flow: "sign-on-mfa", prompt: "login")
        client.next(action: "SIGNON", ["username": "demo", "password": "Ch4ng3it!"])
        let app = client.fields.first?["options"]?.arrayValue?.first { $0["type"] == "TOTP" }
        guard let app else { return nil }
        client.next(action: "NEXT", ["device": app])
        return app
    }

    @Test func registrationShowsTheURIAndSavesTheDeviceOnTheFirstCode() throws {
        let client = DaVinciClient()
        client.start(flow: "sign-on-mfa")
        client.next(action: "SIGNON", ["username": "demo", "password": "Ch4ng3it!"])
        #expect(client.fieldTypes == ["DEVICE_AUTHENTICATION", "SUBMIT_BUTTON", "FLOW_BUTTON"])
        client.next(action: "ADD_DEVICE", eventType: "action")
        let options = client.fields.first?["options"]?.arrayValue ?? []
        #expect(options.compactMap { $0["type"]?.stringValue } == ["EMAIL", "SMS", "TOTP"])
        client.next(action: "NEXT", ["newDevice": "TOTP"])
        #expect(client.formName == "Pair Authenticator App")
        let qr = try #require(client.fields.first { $0["type"] == "QR_CODE" })
        let uri = qr["content"]?.stringValue ?? ""
        #expect(uri.hasPrefix("otpauth://totp/PingOne:demo?secret="))
        let credential = try OathCredential(uri: uri)
        #expect(Base32.encode(credential.secret) == qr["fallbackText"]?.stringValue)
        #expect(client.embedded.users.find(username: "demo")?.devices.oath.isEmpty == true, "not before its code")

        let wrong = client.next(action: "VERIFY", ["otp": "000000"])
        #expect(wrong.status == 400)
        #expect(wrong.problems.first?["target"] == "otp")
        let done = client.next(action: "VERIFY", ["otp": .string(credential.code(at: client.clock.now))])
        #expect(done.code != nil)
        let saved = try #require(client.embedded.users.find(username: "demo")?.devices.oath.first)
        #expect(saved.sharedSecret == credential.secret, "AM's face sees the same OATH device")
    }

    @Test func emailAndSMSNeedNoActivation() {
        let client = DaVinciClient()
        client.start(flow: "sign-on-mfa")
        client.next(action: "SIGNON", ["username": "demo", "password": "Ch4ng3it!"])
        client.next(action: "ADD_DEVICE", eventType: "action")
        client.next(action: "NEXT", ["newDevice": "SMS"])
        #expect(client.formName == "Select MFA Device")
        client.next(action: "ADD_DEVICE", eventType: "action")
        #expect(client.next(action: "NEXT", ["newDevice": "FIDO2"]).problems.first?["target"] == "newDevice")
    }

    @Test func theAppsCodeSignsOnOnceAndAWrongOneIsRefused() throws {
        let client = DaVinciClient()
        let phone = try Self.registered(client)
        let app = try #require(Self.choosingTheApp(client))
        #expect(app["title"] == "Authenticator App")
        #expect(client.embedded.outbox.lastOneTimeCode == nil, "nothing is sent for an app")
        #expect(client.formName == "Enter Passcode")

        let code = Self.code(phone, client)
        let wrong = client.next(action: "VERIFY", ["otp": code == "123456" ? "654321" : "123456"])
        #expect(wrong.status == 400)
        #expect(wrong.problems.first?["innerError"]?["remainingAttempts"] == "2")
        let done = client.next(action: "VERIFY", ["otp": .string(code)])
        #expect(done.code != nil)
        #expect(client.token(code: done.code ?? "").body["access_token"] != nil)

        #expect(Self.choosingTheApp(client) != nil)
        let replayed = client.next(action: "VERIFY", ["otp": .string(code)])
        #expect(replayed.status == 400, "the same step's code again")
        client.clock.advance(by: 30)
        #expect(client.next(action: "VERIFY", ["otp": .string(Self.code(phone, client))]).code != nil)
    }

    @Test func threeWrongCodesFailTheFlow() throws {
        let client = DaVinciClient()
        _ = try Self.registered(client)
        _ = try #require(Self.choosingTheApp(client))
        client.next(action: "VERIFY", ["otp": "00000x"])
        client.next(action: "VERIFY", ["otp": "00000y"])
        let last = client.next(action: "VERIFY", ["otp": "00000z"])
        #expect(last.body["status"] == "FAILED")
        #expect(last.body["error"]?["code"] == "otpAttemptsExceeded")
    }

    /// AM's face sees the device: docs/examples/am-exports/mfa/oath_registration.journey.json
    /// (sign in, then AM's OATH Token Verifier) asks straight for the code and takes the app's.
    @Test func amsOathVerifierAcceptsTheDeviceAFlowRegistered() throws {
        let client = DaVinciClient()
        let phone = try Self.registered(client)
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let path = parts.joined(separator: "/") + "/docs/examples/am-exports/mfa/oath_registration.journey.json"
        guard case .success(let bytes) = FileBytes.read(path: path) else {
            Issue.record("cannot read \(path)")
            return
        }
        let source = JourneyImport.Source(path: path, text: String(decoding: bytes, as: UTF8.self))
        for journey in try JourneyImport.load([source], builtIn: Set(client.embedded.journeyNames)) {
            client.embedded.add(journey: journey)
        }
        let first = client.embedded.authenticate(.start(service: "oath_registration")).body
        let verifier = client.embedded.authenticate(
            .submit(Self.filled(first, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]))
        ).body
        let types = verifier["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue }
        #expect(types == ["NameCallback", "ConfirmationCallback"], "registered already: the code")
        let done = client.embedded.authenticate(
            .submit(Self.filled(verifier, ["IDToken1": .string(Self.code(phone, client))])))
        #expect(done.body["tokenId"] != nil)
    }

    /// An AM step with each named input set, as an SDK posts it back.
    static func filled(_ step: JSONValue, _ values: [String: JSONValue]) -> JSONValue {
        guard case .object(var object) = step, let callbacks = object["callbacks"]?.arrayValue else { return step }
        object["callbacks"] = .array(
            callbacks.map { callback in
                guard case .object(var cb) = callback, let inputs = cb["input"]?.arrayValue else { return callback }
                cb["input"] = .array(
                    inputs.map { input in
                        guard case .object(var i) = input, let value = i["name"]?.stringValue.flatMap({ values[$0] })
                        else { return input }
                        i["value"] = value
                        return .object(i)
                    })
                return .object(cb)
            })
        return .object(object)
    }
}
