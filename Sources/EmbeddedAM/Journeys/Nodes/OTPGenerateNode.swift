import AuthBridgeCore

/// AM's HOTP Generator with its OTP Email/SMS Sender: makes a code and "sends" it to the user's
/// `mail` or `telephoneNumber` (the outbox keeps it for `emulator.lastOneTimeCode`). `next`.
struct OTPGenerateNode: JourneyNode {
    static let type = NodeType(name: "otpGenerate") { (s: inout Settings) throws(SettingsError) in try OTPGenerateNode(&s) }

    /// Where the code waits for the OTP Collector: transient state, as AM keeps it.
    static let codeKey = "oneTimePassword"
    static let expiryKey = "oneTimePasswordExpiresAt"

    var length: Int
    var validity: Double
    var delivery: String

    var outcomes: [String] { ["next"] }

    init(_ s: inout Settings) throws(SettingsError) {
        let delivery = try s.string("delivery", default: "email")
        guard delivery == "email" || delivery == "sms" else { throw SettingsError(reason: "\"delivery\" must be email or sms") }
        length = try s.int("length", default: 6, in: 4...12)
        validity = try s.seconds("validity", default: 300)!
        self.delivery = delivery
    }

    func process(_ context: inout NodeContext) -> NodeAction {
        let code = context.random.string(length: length, alphabet: "0123456789")
        let expires = context.clock.now + validity
        context.transient[Self.codeKey] = .string(code)
        context.transient[Self.expiryKey] = .double(expires)
        let username = context.username
        let attribute = delivery == "sms" ? "telephoneNumber" : "mail"
        let to = context.users.find(username: username)?.attributes[attribute]?.stringValue ?? ""
        context.outbox.send(Outbox.OneTimeCode(
            code: code, delivery: delivery, to: to, username: username, journey: context.journeyName, expiresAt: expires))
        return .outcome("next")
    }
}
