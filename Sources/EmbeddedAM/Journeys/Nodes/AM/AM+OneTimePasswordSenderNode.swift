import AuthBridgeCore

extension AM {
    /// AM's OTP Email Sender (`OneTimePasswordSmtpSenderNode`) and OTP SMS Sender
    /// (`OneTimePasswordSmsSenderNode`): the generated code goes to the stored user's
    /// `emailAttribute` / `mobilePhoneAttributeName`. There is no mail or SMS server here: the
    /// outbox keeps it for `emulator.lastOneTimeCode`. The mail server and message settings are
    /// read by AM only to send, so they are not checked. No user, no address or no code makes
    /// AM's node throw: the journey fails.
    struct OneTimePasswordSenderNode: JourneyNode {
        static let smtpType = NodeType(name: "OneTimePasswordSmtpSenderNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                OneTimePasswordSenderNode(
                    typeName: "OneTimePasswordSmtpSenderNode", delivery: "email",
                    attribute: try s.string("emailAttribute", default: "mail")))
        }
        static let smsType = NodeType(name: "OneTimePasswordSmsSenderNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                OneTimePasswordSenderNode(
                    typeName: "OneTimePasswordSmsSenderNode", delivery: "sms",
                    attribute: try s.string("mobilePhoneAttributeName", default: "telephoneNumber")))
        }

        /// The code's lifetime the outbox shows: AM's default `passwordExpiryTime` (5 minutes).
        /// The OTP Collector Decision applies its own setting when it checks the code.
        static let defaultValidity: Double = 300

        var typeName: String
        var delivery: String
        var attribute: String
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard case .string(let code)? = context.transient[OneTimePasswordGeneratorNode.codeKey],
                let made = context.transient[OneTimePasswordGeneratorNode.timestampKey]?.doubleValue
            else { return AMFailure.nodeError(&context, typeName, "no one-time password was generated before it") }
            guard let user = context.users.find(username: context.username) else {
                return AMFailure.nodeError(
                    &context, typeName, "no user \"\(context.username)\" to send the one-time password to")
            }
            guard let address = user.attributes.value(path: attribute.replacingSlashes)?.stringValue, !address.isEmpty
            else {
                return AMFailure.nodeError(&context, typeName, "the user \"\(user.username)\" has no \(attribute)")
            }
            context.outbox.send(
                Outbox.OneTimeCode(
                    code: code, delivery: delivery, to: address, username: user.username, journey: context.journeyName,
                    expiresAt: made + Self.defaultValidity))
            return .outcome("outcome")
        }
    }
}
