import AuthBridgeCore

extension AM {
    /// AM's Email Suspend: suspends the journey with a SuspendedTextOutputCallback and e-mails a
    /// resume link (the outbox keeps it for `emulator.lastSuspendedJourney`) to the user's
    /// `emailAttribute` (the stored user found by `identityAttribute` with `objectLookup`, else
    /// `objectAttributes` in shared state). With no address it suspends anyway and sends nothing,
    /// so a stranger learns nothing. Answering the step sends it again; the link resumes it along
    /// `outcome`.
    struct EmailSuspendNode: JourneyNode {
        static let type = NodeType(name: "EmailSuspendNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                EmailSuspendNode(
                    message: try s.localized("emailSuspendMessage")?.text
                        ?? "An email has been sent to the address you entered. Click the link in that email to proceed.",
                    emailAttribute: try s.string("emailAttribute", default: "mail"),
                    identityAttribute: try s.string("identityAttribute", default: "userName"),
                    objectLookup: try s.bool("objectLookup", default: false),
                    template: try s.string("emailTemplateName", default: "")))
        }
        .journeyFile(
            JourneyFileSyntax(name: "suspend", outcomeNames: ["outcome": "next"]) {
                (s: inout Settings) throws(SettingsError) in
                let node = EmailSuspendNode(
                    message: try s.string(
                        "message",
                        default:
                            "An email has been sent to the address you entered. Click the link in that email to proceed."
                    ),
                    emailAttribute: try s.string("emailAttribute", default: "mail"), identityAttribute: "userName",
                    objectLookup: try s.bool("objectLookup", default: true), template: "",
                    duration: try s.seconds("duration", default: 300)!)
                guard !node.message.isEmpty else {
                    throw SettingsError(reason: "\"message\" is required (a non-empty string)")
                }
                return [node]
            })

        var message: String
        var emailAttribute: String
        var identityAttribute: String
        var objectLookup: Bool
        var template: String
        /// How long the suspended journey waits: the realm's suspended-journey lifetime (AM's
        /// default 300 s; exports do not carry it, AuthBridge's JSON sets it as `duration`).
        var duration: Double = 300
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            switch context.entry {
            case .resumed: return .outcome("outcome")
            case .answered: return .send(step)
            case .arrived:
                let id = context.random.string(
                    length: 32, alphabet: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                let expires = context.clock.now + duration
                context.suspension = (id, expires)
                let stored = objectLookup ? AMIdentity.user(context, attribute: identityAttribute) : nil
                let address =
                    stored?.attributes.value(path: emailAttribute.replacingSlashes)?.stringValue
                    ?? (objectLookup
                        ? nil
                        : context.shared.value(path: "objectAttributes." + emailAttribute.replacingSlashes)?.stringValue)
                guard let address, !address.isEmpty else { return .send(step) }
                let config = context.config
                context.outbox.send(
                    Outbox.SuspendLink(
                        suspendedId: id,
                        resumeURI: "\(config.baseURL)/XUI/?realm=\(config.realmPath)&suspendedId=\(id)", to: address,
                        username: stored?.username ?? context.username, journey: context.journeyName, expiresAt: expires
                    ))
                return .send(step)
            }
        }

        private var step: Step { Step(callbacks: [.suspendedTextOutput(message: message, messageType: "0")]) }
    }
}
