import AuthBridgeCore

extension AM {
    /// AM's Get Authenticator App node (`GetAuthenticatorAppNode` and its bundle in
    /// ForgeRock/am-external, releases/8.0.2, auth-nodes): a script TextOutputCallback writing the
    /// message with the store links into AM's page, and a Confirmation ["Continue"]; any answer
    /// goes on along `outcome`. As in AM, the Google link is its default when `appleLink` is blank.
    struct GetAuthenticatorAppNode: JourneyNode {
        static let type = NodeType(name: "GetAuthenticatorAppNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                GetAuthenticatorAppNode(
                    message: try s.localized("message"), continueLabel: try s.localized("continueLabel"),
                    appleLink: try s.string("appleLink", default: appleDefault),
                    googleLink: try s.string("googleLink", default: googleDefault)))
        }

        static let appleDefault = "https://apps.apple.com/app/pingid/id891247102"
        static let googleDefault = "https://play.google.com/store/apps/details?id=prod.com.pingidentity.pingid"

        var message: LocalizedText?
        var continueLabel: LocalizedText?
        var appleLink: String
        var googleLink: String
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard context.answers == nil else { return .outcome("outcome") }
            return .send(
                Step(callbacks: [
                    .textOutput(message: script, messageType: "4"),
                    .confirmation(
                        prompt: "", messageType: 0, options: [continueLabel?.text ?? "Continue"], optionType: -1,
                        defaultOption: 0, preset: 0),
                ]))
        }

        var script: String {
            var text = message?.text ?? "Get the app from the {{appleLink}} or on {{googleLink}}"
            let apple = appleLink.trimmingSpaces.isEmpty ? Self.appleDefault : appleLink
            let google = appleLink.trimmingSpaces.isEmpty ? Self.googleDefault : googleLink
            if text.contains("{appleLabel}") || text.contains("{googleLabel}") {
                text = text.replacing("{{appleLabel}}", with: "Apple App Store")
                    .replacing("{{googleLabel}}", with: "Google Play Store")
                    .replacing("{{appleLink}}", with: apple).replacing("{{googleLink}}", with: google)
            } else {
                text = text.replacing("{{appleLink}}", with: "<a target='_blank' href='\(apple)'>Apple App Store</a>")
                    .replacing("{{googleLink}}", with: "<a target='_blank' href='\(google)'>Google Play Store</a>")
            }
            return "document.getElementById(\"callback_0\").innerHTML=\"<center>\(text)</center>\""
        }
    }

    /// AM's MFA Registration Options node (`MultiFactorRegistrationOptionsNode`): for a user whose
    /// MFA method (shared `mfaMethod`, set by a verifier's not-registered outcome) has no device, a
    /// message and a Confirmation of "Register Device", "Get the App" (with `getApp`), and unless
    /// `mandatory` "Skip this step" and "Opt-out". The chosen option is the outcome
    /// (`registerOutcome`, `getAppOutcome`, `skipOutcome`, `optOutOutcome`); no username or method,
    /// or an option it did not offer, is a node error.
    struct MultiFactorRegistrationOptionsNode: JourneyNode {
        static let type = NodeType(name: "MultiFactorRegistrationOptionsNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                MultiFactorRegistrationOptionsNode(
                    mandatory: try s.bool("mandatory", default: false), getApp: try s.bool("getApp", default: true),
                    message: try s.localized("message"), registerLabel: try s.localized("registerDeviceLabel"),
                    getAppLabel: try s.localized("getAppLabel"), skipLabel: try s.localized("skipStepLabel"),
                    optOutLabel: try s.localized("optOutLabel")))
        }

        static let defaultMessage =
            "On this page you can choose to register, skip or opt-out the second factor authentication method "
            + "selected to protect your account. If you \"Skip\", an MFA method will not be registered now, but you "
            + "will be prompted again on your next login. Otherwise, if you \"Opt out\", an MFA method will not be "
            + "registered now and you will not be asked again. This choice is not recommended."

        var mandatory: Bool
        var getApp: Bool
        var message: LocalizedText?
        var registerLabel: LocalizedText?
        var getAppLabel: LocalizedText?
        var skipLabel: LocalizedText?
        var optOutLabel: LocalizedText?

        var outcomes: [String] {
            ["registerOutcome"] + (getApp ? ["getAppOutcome"] : [])
                + (mandatory ? [] : ["skipOutcome", "optOutOutcome"])
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let answers = context.answers, answers.count == 2 else {
                guard !context.username.isEmpty else {
                    return AMFailure.nodeError(
                        &context, "MultiFactorRegistrationOptionsNode", "expected username to be set")
                }
                guard !JourneyValues.text(context.shared["mfaMethod"]).isEmpty else {
                    return AMFailure.nodeError(
                        &context, "MultiFactorRegistrationOptionsNode",
                        "expected multi-factor authentication method to be set")
                }
                var options = [registerLabel?.text ?? "Register Device"]
                if getApp { options.append(getAppLabel?.text ?? "Get the App") }
                if !mandatory { options += [skipLabel?.text ?? "Skip this step", optOutLabel?.text ?? "Opt-out"] }
                return .send(
                    Step(callbacks: [
                        .textOutput(message: message?.text ?? Self.defaultMessage, messageType: "0"),
                        .confirmation(
                            prompt: "", messageType: 0, options: options, optionType: -1, defaultOption: 0, preset: 0),
                    ]))
            }
            // AM's indices: 0 register, 1 get app, 2 skip, 3 opt out; one less without "Get the App".
            let index = JourneyValues.optionIndex(answers[1].value) ?? -1
            let shift = getApp ? 0 : 1
            switch index {
            case 0: return .outcome("registerOutcome")
            case 1 where getApp: return .outcome("getAppOutcome")
            case 2 - shift where !mandatory: return .outcome("skipOutcome")
            case 3 - shift where !mandatory: return .outcome("optOutOutcome")
            default:
                return AMFailure.nodeError(
                    &context, "MultiFactorRegistrationOptionsNode", "unrecognized option: \(index)")
            }
        }
    }

    /// AM's Opt-out Multi-Factor Authentication node (`OptOutMultiFactorAuthenticationNode`): marks
    /// the user as skipping the MFA method in shared `mfaMethod` (`MultiFactorSkip`), unless they
    /// already do, or may not skip and have no device; then `outcome`. No username, no method or
    /// one it does not know is a node error.
    struct OptOutMultiFactorAuthenticationNode: JourneyNode {
        static let type = NodeType(name: "OptOutMultiFactorAuthenticationNode", asksForInput: false) {
            (_: inout Settings, _: AMNodeSource) throws(SettingsError) in .node(OptOutMultiFactorAuthenticationNode())
        }

        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard !context.username.isEmpty else {
                return AMFailure.nodeError(
                    &context, "OptOutMultiFactorAuthenticationNode", "expected username to be set")
            }
            let method = JourneyValues.text(context.shared["mfaMethod"])
            guard let kind = MultiFactorSkip.kinds[method] else {
                return AMFailure.nodeError(
                    &context, "OptOutMultiFactorAuthenticationNode",
                    method.isEmpty ? "expected MFA method to be set" : "unsupported MFA method \(method)")
            }
            guard let user = context.users.find(username: context.username) else {
                return AMFailure.nodeError(
                    &context, "OptOutMultiFactorAuthenticationNode", "failed to get the identity object")
            }
            let setting = MultiFactorSkip.setting(of: user, kind)
            let hasDevice = !user.devices.restJSON(kind).isEmpty
            if setting == .skippable || (setting == .notSkippable && !hasDevice) { return .outcome("outcome") }
            _ = context.users.update(username: user.username) { MultiFactorSkip.set(.skippable, on: &$0, kind) }
            return .outcome("outcome")
        }
    }
}

/// Whether a user may skip an MFA method, as AM keeps it: an integer user attribute per method
/// (`SkipSetting`, read by `MultiFactorNodeDelegate` in ForgeRock/am-external: 0 not set,
/// 1 skippable, 2 not skippable). The OATH and push attributes carry AM's default names;
/// AM's node sources do not name WebAuthn's, so AuthBridge's name for it is `webauthn2faEnabled`.
enum MultiFactorSkip: Int {
    case notSet = 0
    case skippable = 1
    case notSkippable = 2

    /// Shared `mfaMethod` values (AM's `MultiFactorConstants`) and their device kinds.
    static let kinds: [String: DeviceKind] = ["oath": .oath, "push": .push, "webauthn": .webauthn]
    static let attributes: [DeviceKind: String] = [
        .oath: "oath2faEnabled", .push: "push2faEnabled", .webauthn: "webauthn2faEnabled",
    ]

    static func setting(of user: DirectoryUser, _ kind: DeviceKind) -> MultiFactorSkip {
        guard let name = attributes[kind], let value = user.attributes[name] else { return .notSet }
        let text = value.stringValue ?? value.arrayValue?.first?.stringValue ?? value.intValue.map { String($0) }
        return text.flatMap(Int.init).flatMap(MultiFactorSkip.init(rawValue:)) ?? .notSet
    }

    static func set(_ setting: MultiFactorSkip, on user: inout DirectoryUser, _ kind: DeviceKind) {
        guard let name = attributes[kind] else { return }
        user.attributes[name] = .string(String(setting.rawValue))
    }
}

extension String {
    fileprivate var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
