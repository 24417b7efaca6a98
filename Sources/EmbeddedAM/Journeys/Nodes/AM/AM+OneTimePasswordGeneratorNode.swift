import AuthBridgeCore

extension AM {
    /// AM's HOTP Generator: a code of `length` digits and the time it was made, in transient
    /// state (`oneTimePassword`, `oneTimePasswordTimestamp` in seconds, AM's keys), for the OTP
    /// senders and the OTP Collector Decision. It sends nothing itself; a sender does.
    /// AuthBridge's JSON writes the two as one node, `otpGenerate` (`delivery` names the sender).
    struct OneTimePasswordGeneratorNode: JourneyNode {
        static let type = NodeType(name: "OneTimePasswordGeneratorNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(OneTimePasswordGeneratorNode(length: try s.int("length", default: 8, in: 6...32)))
        }
        .journeyFile(
            JourneyFileSyntax(name: "otpGenerate", outcomeNames: ["outcome": "next"]) {
                (s: inout Settings) throws(SettingsError) in
                let delivery = try s.string("delivery", default: "email")
                guard delivery == "email" || delivery == "sms" else {
                    throw SettingsError(reason: "\"delivery\" must be email or sms")
                }
                let length = try s.int("length", default: 6, in: 4...12)
                if s.raw("validity") != nil {
                    throw SettingsError(
                        reason:
                            "\"validity\" is a setting of otpVerify now: AM's OTP Collector Decision checks the code's age"
                    )
                }
                let sender =
                    delivery == "sms"
                    ? OneTimePasswordSenderNode(
                        typeName: "OneTimePasswordSmsSenderNode", delivery: "sms", attribute: "telephoneNumber")
                    : OneTimePasswordSenderNode(
                        typeName: "OneTimePasswordSmtpSenderNode", delivery: "email", attribute: "mail")
                return [OneTimePasswordGeneratorNode(length: length), sender]
            })

        static let codeKey = "oneTimePassword"
        static let timestampKey = "oneTimePasswordTimestamp"

        var length: Int
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            context.transient[Self.codeKey] = .string(context.random.string(length: length, alphabet: "0123456789"))
            context.transient[Self.timestampKey] = .double(context.clock.now)
            return .outcome("outcome")
        }
    }
}
