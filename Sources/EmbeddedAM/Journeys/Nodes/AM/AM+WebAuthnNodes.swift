import AuthBridgeCore

extension AM {
    /// AM's WebAuthn Registration and Authentication nodes. With `asScript: false` (and as
    /// AuthBridge's `webAuthnRegistration`/`webAuthnAuthentication` callbacks do): a
    /// MetadataCallback whose `data` carries the challenge and options, then the
    /// HiddenValueCallback `webAuthnOutcome` the client writes its result into. With
    /// `asScript: true`, as AM: two script TextOutputCallbacks (message type 4: the WebAuthn call,
    /// a spinner) and the hidden value (`Callback+WebAuthnScript.swift`); a browser runs the
    /// script, a native SDK cannot answer it, and a step sent back as it came goes along
    /// `failure`. A recovery-code Confirmation follows either form. The hidden value is read as
    /// AM reads it (`WebAuthnOutcomeDeserializer` in ForgeRock/am-external, releases/8.0.2):
    /// JSON with `error` → `error`, or with `legacyData`, which is then read as the plain string
    /// is: "unsupported" → `unsupported`, "ERROR::…" → `error` (the text kept as
    /// `WebAuthenticationDOMException`), nothing or the input's own default → `failure`,
    /// anything else → `success`. **No attestation or signature is verified.**
    /// A registration keeps a device record on the user (`webauthnDeviceProfiles`), so an
    /// authentication for a known user with none goes along `noDevice` without a step.
    struct WebAuthnNode: JourneyNode {
        static let registrationType = NodeType(name: "WebAuthnRegistrationNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                WebAuthnNode(
                    registration: true, options: try options(&s),
                    relyingPartyName: try s.string("relyingPartyName", default: "ForgeRock"),
                    maxDevices: try s.int("maxSavedDevices", default: 0, in: 0...1000), recoveryCodes: false))
        }
        static let authenticationType = NodeType(name: "WebAuthnAuthenticationNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                WebAuthnNode(
                    registration: false, options: try options(&s), relyingPartyName: "", maxDevices: 0,
                    recoveryCodes: try s.bool("isRecoveryCodeAllowed", default: false)))
        }

        /// Read when the node is built; the challenge is made per visit.
        struct Options: Sendable {
            var domain: String
            var userVerification: String
            var timeoutSeconds: Int
            /// AM's `asScript`: the step carries a script for the browser instead of the metadata.
            var asScript: Bool
        }

        private static func options(_ s: inout Settings) throws(SettingsError) -> Options {
            let verification = try s.string("userVerificationRequirement", default: "PREFERRED")
            guard ["REQUIRED", "PREFERRED", "DISCOURAGED"].contains(verification.uppercased()) else {
                throw SettingsError(
                    reason:
                        "\"userVerificationRequirement\" must be REQUIRED, PREFERRED or DISCOURAGED, got \"\(verification)\""
                )
            }
            return Options(
                domain: try s.string("relyingPartyDomain", default: ""), userVerification: verification.lowercased(),
                timeoutSeconds: try s.int("timeout", default: 60, in: 1...3600),
                asScript: try s.bool("asScript", default: false))
        }

        static let devicesAttribute = "webauthnDeviceProfiles"
        static let errorKey = "WebAuthenticationDOMException"

        var registration: Bool
        var options: Options
        var relyingPartyName: String
        var maxDevices: Int
        var recoveryCodes: Bool

        var outcomes: [String] {
            registration
                ? ["unsupported", "success", "failure", "error"] + (maxDevices > 0 ? ["exceedDeviceLimit"] : [])
                : ["unsupported", "noDevice", "success", "failure", "error"] + (recoveryCodes ? ["recoveryCode"] : [])
        }

        var typeName: String { registration ? "WebAuthnRegistrationNode" : "WebAuthnAuthenticationNode" }

        func process(_ context: inout NodeContext) -> NodeAction {
            let user = context.username.isEmpty ? nil : context.users.find(username: context.username)
            let devices = user?.attributes[Self.devicesAttribute]?.arrayValue ?? []
            guard let answers = context.answers else {
                if registration, user == nil {
                    return AMFailure.nodeError(
                        context, typeName, "no user \"\(context.username)\" to register a device for")
                }
                if registration, maxDevices > 0, devices.count >= maxDevices { return .outcome("exceedDeviceLimit") }
                if !registration, user != nil, devices.isEmpty { return .outcome("noDevice") }
                return .send(step(context, user: user))
            }
            // The hidden value follows the metadata, or the two scripts.
            let outcomeIndex = options.asScript ? 2 : 1
            if recoveryCodes, answers.count > outcomeIndex + 1,
                JourneyValues.optionIndex(answers[outcomeIndex + 1].value) == 0
            {
                return .outcome("recoveryCode")
            }
            var result = JourneyValues.text(answers[outcomeIndex].value)
            if case .object(let json)? = try? JSONParser.parse(result),
                json["error"] != nil || json["legacyData"] != nil
            {
                if let error = json["error"] {
                    context.shared[Self.errorKey] = .string(JourneyValues.text(error))
                    return .outcome("error")
                }
                result = JourneyValues.text(json["legacyData"])
            }
            if result == "unsupported" { return .outcome("unsupported") }
            if result.hasPrefix("ERROR::") {
                context.shared[Self.errorKey] = .string(String(result.dropFirst("ERROR::".count)))
                return .outcome("error")
            }
            guard !result.isEmpty, result != "webAuthnOutcome" else { return .outcome("failure") }
            if registration, let user {
                let record: JSONValue = ["deviceName": "New Security Key", "registeredAt": .double(context.clock.now)]
                _ = context.users.update(username: user.username) {
                    $0.attributes[Self.devicesAttribute] = .array(devices + [record])
                }
            }
            return .outcome("success")
        }

        private func step(_ context: NodeContext, user: DirectoryUser?) -> Step {
            let challenge = (0..<32).map { _ in UInt8(truncatingIfNeeded: context.random.next()) }
            let username = user?.username ?? context.username
            var callbacks: [Callback]
            if options.asScript {
                let script = Callback.WebAuthnScriptOptions(
                    challenge: challenge, relyingPartyId: options.domain, timeout: options.timeoutSeconds * 1000,
                    userVerification: options.userVerification)
                callbacks = [
                    registration
                        ? .webAuthnRegistrationScript(
                            script, relyingPartyName: relyingPartyName, userId: Base64URL.encode(Array(username.utf8)),
                            userName: username,
                            displayName: username)
                        : .webAuthnAuthenticationScript(script),
                    .webAuthnSpinnerScript, .webAuthnOutcome(),
                ]
            } else {
                let webAuthn = Callback.WebAuthnOptions(
                    challenge: Base64URL.encode(challenge),
                    relyingPartyId: options.domain.isEmpty ? Self.host(context.config.baseURL) : options.domain,
                    timeout: options.timeoutSeconds * 1000, userVerification: options.userVerification)
                callbacks = [
                    registration
                        ? .webAuthnRegistration(
                            webAuthn, relyingPartyName: relyingPartyName, displayName: username, userName: username)
                        : .webAuthnAuthentication(webAuthn),
                    .webAuthnOutcome(),
                ]
            }
            if recoveryCodes {
                // "Not pressed" is 100, as for AM's other exit options.
                callbacks.append(
                    .confirmation(
                        prompt: "", messageType: 0, options: ["Use Recovery Code"], optionType: -1, defaultOption: 0,
                        preset: 100))
            }
            return Step(callbacks: callbacks)
        }

        /// The relying party id AM defaults to: the server's host name.
        static func host(_ url: String) -> String {
            let rest = url.split(separator: "://", maxSplits: 1).last.map(String.init) ?? url
            return String(rest.prefix { $0 != "/" && $0 != ":" })
        }
    }
}
