import AuthBridgeCore

extension AM {
    /// AM's Email Template node: IDM sends the template `emailTemplateName` to the user's
    /// `emailAttribute`, read from `objectAttributes` in shared state, else from the stored user
    /// found by `identityAttribute`. Here the outbox keeps it (template, address, user) instead
    /// of a mail server; templates are not rendered. An address → `EMAIL_SENT`; none →
    /// `EMAIL_NOT_SENT`, as AM.
    struct EmailTemplateNode: JourneyNode {
        static let type = NodeType(name: "EmailTemplateNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let template = try s.string("emailTemplateName", default: "")
            guard !template.isEmpty else {
                throw SettingsError(reason: "\"emailTemplateName\" is required: the IDM e-mail template to send")
            }
            return .node(
                EmailTemplateNode(
                    template: template, emailAttribute: try s.string("emailAttribute", default: "mail"),
                    identityAttribute: try s.string("identityAttribute", default: "userName")))
        }

        var template: String
        var emailAttribute: String
        var identityAttribute: String
        var outcomes: [String] { ["EMAIL_SENT", "EMAIL_NOT_SENT"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            let user = AMIdentity.user(context, attribute: identityAttribute)
            let typed = context.shared.value(path: "objectAttributes." + emailAttribute.replacingSlashes)?.stringValue
            let address =
                (typed?.isEmpty == false ? typed : nil)
                ?? user?.attributes.value(path: emailAttribute.replacingSlashes)?.stringValue
            guard let address, !address.isEmpty else { return .outcome("EMAIL_NOT_SENT") }
            context.outbox.send(
                Outbox.Email(
                    template: template, to: address, username: user?.username ?? context.username,
                    journey: context.journeyName, sentAt: context.clock.now))
            return .outcome("EMAIL_SENT")
        }
    }
}
