import AuthBridgeCore

/// AM's Email Suspend: suspends the journey and "e-mails" a link holding a `suspendedId` to the
/// user's address (the outbox keeps it for `emulator.lastSuspendedJourney`). Answering the step
/// sends it again; only the link moves on, along `next`.
struct SuspendNode: JourneyNode {
    static let type = NodeType(name: "suspend") { (s: inout Settings) throws(SettingsError) in try SuspendNode(&s) }

    var message: String
    var duration: Double
    /// The attribute holding the address the link goes to: the stored user's, else the
    /// `objectAttributes` member in shared state.
    var emailAttribute: String

    var outcomes: [String] { ["next"] }

    init(_ s: inout Settings) throws(SettingsError) {
        message = try s.string(
            "message", default: "An email has been sent to the address you entered. Click the link in that email to proceed.")
        duration = try s.seconds("duration", default: 300)!
        emailAttribute = try s.string("emailAttribute", default: "mail")
    }

    /// The limit the callback's own setting has in a page.
    func check() throws(SettingsError) {
        guard !message.isEmpty else { throw SettingsError(reason: "\"message\" is required (a non-empty string)") }
    }

    func process(_ context: inout NodeContext) -> NodeAction {
        switch context.entry {
        case .resumed:
            return .outcome("next")
        case .answered:
            return .send(step)
        case .arrived:
            let id = context.random.string(length: 32, alphabet: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            let expires = context.clock.now + duration
            let username = context.username
            let address = context.users.find(username: username)?.attributes[emailAttribute]?.stringValue
                ?? context.shared.value(path: "objectAttributes." + emailAttribute)?.stringValue ?? ""
            let config = context.config
            context.outbox.send(Outbox.SuspendLink(
                suspendedId: id, resumeURI: "\(config.baseURL)/XUI/?realm=\(config.realmPath)&suspendedId=\(id)", to: address,
                username: username, journey: context.journeyName, expiresAt: expires))
            context.suspension = (id, expires)
            return .send(step)
        }
    }

    private var step: Step { Step(callbacks: [.suspendedTextOutput(message: message, messageType: "0")]) }
}
