import AuthBridgeCore

extension AM {
    /// AM's WebAuthn Registration and Authentication nodes (ForgeRock/am-external,
    /// releases/8.0.2, auth-nodes …/webauthn/). With `asScript: false` (and as AuthBridge's
    /// `webAuthnRegistration`/`webAuthnAuthentication` callbacks do): a MetadataCallback whose
    /// `data` carries AM's script context (`Callback+WebAuthn.swift`), then the HiddenValueCallback
    /// `webAuthnOutcome` the client writes its result into. With `asScript: true`, as AM: two
    /// script TextOutputCallbacks (message type 4: the WebAuthn call, a spinner) and the hidden
    /// value (`Callback+WebAuthnScript.swift`); a browser runs the script, a native SDK cannot
    /// answer it. A recovery-code Confirmation follows the authentication step when allowed.
    ///
    /// The answer is verified as AM verifies it (`WebAuthnCeremony`, `WebAuthnAttestation`): the
    /// client data's type, the challenge this visit issued (kept in shared state under AM's
    /// `web-authn-challenge`, and dropped once an answer is checked, so one answer verifies once),
    /// the origin, the relying party id's hash, the flags, the attestation statement, and for an
    /// authentication the signature with the key the registration saved. A registration saves a
    /// `WebAuthnDeviceProfile` on the user; a refusal goes along `failure` and saves nothing.
    struct WebAuthnNode: JourneyNode {
        static let registrationType = NodeType(name: "WebAuthnRegistrationNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            var registration = Registration(
                relyingPartyName: try s.string("relyingPartyName", default: "ForgeRock"),
                maxDevices: try s.int("maxSavedDevices", default: 0, in: 0...1000),
                excludeCredentials: try s.bool("excludeCredentials", default: false),
                residentKey: try choice(&s, "residentKeyRequirement", ["DISCOURAGED", "PREFERRED", "REQUIRED"]),
                attestation: try choice(&s, "attestationPreference", ["NONE", "INDIRECT", "DIRECT"]),
                attachment: try choice(&s, "authenticatorAttachment", ["UNSPECIFIED", "PLATFORM", "CROSS_PLATFORM"]),
                recoveryCodes: try s.bool("generateRecoveryCodes", default: true))
            // AM before 7.2 had the boolean only.
            if try s.bool("requiresResidentKey", default: false) { registration.residentKey = "required" }
            return .node(WebAuthnNode(kind: .registration(registration), options: try options(&s)))
        }
        static let authenticationType = NodeType(name: "WebAuthnAuthenticationNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                WebAuthnNode(
                    kind: .authentication(
                        Authentication(
                            usernameless: try s.bool("requiresResidentKey", default: false),
                            recoveryCodes: try s.bool("isRecoveryCodeAllowed", default: false),
                            detectSignCountMismatch: try s.bool("detectSignCountMismatch", default: false))),
                    options: try options(&s)))
        }

        /// Read when the node is built; the challenge is made per visit.
        struct Options: Sendable {
            /// The configured relying party id, or empty (then the server's host).
            var domain: String
            /// AM's `origins`: empty permits the server's own origin and `https://<rpId>`.
            var origins: [String]
            var userVerification: String
            var timeoutSeconds: Int
            /// AM's `asScript`: the step carries a script for the browser instead of the metadata.
            var asScript: Bool
        }

        struct Registration: Sendable {
            var relyingPartyName: String
            var maxDevices: Int
            var excludeCredentials: Bool
            var residentKey: String
            var attestation: String
            var attachment: String
            var recoveryCodes: Bool
        }

        struct Authentication: Sendable {
            /// AM's `requiresResidentKey`: no username first; the user handle names the user.
            var usernameless: Bool
            var recoveryCodes: Bool
            var detectSignCountMismatch: Bool
        }

        enum Kind: Sendable {
            case registration(Registration)
            case authentication(Authentication)
        }

        private static func options(_ s: inout Settings) throws(SettingsError) -> Options {
            Options(
                domain: try s.string("relyingPartyDomain", default: ""),
                origins: try s.strings("origins", nonEmpty: false) ?? [],
                userVerification: try choice(
                    &s, "userVerificationRequirement", ["REQUIRED", "PREFERRED", "DISCOURAGED"], default: "PREFERRED"),
                timeoutSeconds: try s.int("timeout", default: 60, in: 1...3600),
                asScript: try s.bool("asScript", default: false))
        }

        /// One of AM's enum values (any case), lower-cased as the browser API spells it.
        private static func choice(
            _ s: inout Settings, _ key: String, _ allowed: [String], default fallback: String? = nil
        ) throws(SettingsError) -> String {
            let value = try s.string(key, default: fallback ?? allowed[0])
            guard allowed.contains(value.uppercased()) else {
                throw SettingsError(
                    reason: "\"\(key)\" must be \(allowed.joined(separator: ", ")), got \"\(value)\"")
            }
            return value.lowercased().replacingUnderscores
        }

        static let errorKey = "WebAuthenticationDOMException"
        static let challengeKey = "web-authn-challenge"

        var kind: Kind
        var options: Options

        var outcomes: [String] {
            switch kind {
            case .registration(let r):
                ["unsupported", "success", "failure", "error"] + (r.maxDevices > 0 ? ["exceedDeviceLimit"] : [])
            case .authentication(let a):
                ["unsupported", "noDevice", "success", "failure", "error"] + (a.recoveryCodes ? ["recoveryCode"] : [])
                    + (a.detectSignCountMismatch ? ["signCountMismatch"] : [])
            }
        }

        var typeName: String {
            if case .registration = kind { return "WebAuthnRegistrationNode" }
            return "WebAuthnAuthenticationNode"
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            switch kind {
            case .registration(let r): register(r, &context)
            case .authentication(let a): authenticate(a, &context)
            }
        }

        /// The client's hidden value: after the metadata, or after the two scripts. Empty (or no
        /// answers at all) means "not answered yet", and AM sends the step again.
        func hiddenValue(_ context: NodeContext) -> String {
            let index = options.asScript ? 2 : 1
            guard let answers = context.answers, answers.count > index else { return "" }
            return JourneyValues.text(answers[index].value)
        }

        /// AM's `getChallenge`: the one in shared state, or a new one put there.
        func challenge(_ context: inout NodeContext) -> [UInt8] {
            if case .string(let saved)? = context.shared[Self.challengeKey], let bytes = Base64.decode(saved) {
                return bytes
            }
            let bytes = context.random.bytes(32)
            context.shared[Self.challengeKey] = .string(Base64.encode(bytes))
            return bytes
        }

        /// The relying party id the answer must carry: the configured one, else the server's host.
        func relyingPartyId(_ context: NodeContext) -> String {
            options.domain.isEmpty ? Self.host(context.config.baseURL) : options.domain
        }

        /// What `WebAuthnCeremony` checks the answer against; the challenge is used up here.
        func expectation(_ context: inout NodeContext, challenge: [UInt8]) -> WebAuthnCeremony.Expectation {
            context.shared[Self.challengeKey] = nil
            let rpId = relyingPartyId(context)
            let origins =
                options.origins.isEmpty ? [Self.origin(context.config.baseURL), "https://\(rpId)"] : options.origins
            return WebAuthnCeremony.Expectation(
                challenge: challenge, rpId: rpId, origins: Set(origins),
                userVerificationRequired: options.userVerification == "required")
        }

        /// An answer the node cannot even take apart: AM's node throws, and the journey fails.
        func unreadable(_ context: inout NodeContext) -> NodeAction {
            AMFailure.nodeError(
                &context, typeName, "the webAuthnOutcome answer is not in a form AM reads", code: "webauthn_unreadable")
        }

        /// A ceremony the server refused: the journey's failure reason names the check.
        func refused(_ failure: WebAuthnCeremony.Failure, registering: Bool, _ context: inout NodeContext) -> NodeAction
        {
            let what = registering ? "registration" : "assertion"
            logWarn("journey \(context.journeyName), node \(context.nodeId): \(what) refused: \(failure)")
            context.failureReason = JourneyFailure.Reason(
                registering ? "webauthn_registration_refused" : "webauthn_assertion_refused",
                "the WebAuthn \(what) failed the \(failure.check) check: \(failure)", ["check": .string(failure.check)])
            return .outcome("failure")
        }

        /// `unsupported` and `ERROR::…` answers; nil for a result to verify.
        func clientOutcome(_ answer: WebAuthnClientAnswer, _ context: inout NodeContext) -> NodeAction? {
            switch answer {
            case .unsupported:
                context.failureReason = JourneyFailure.Reason(
                    "webauthn_unsupported", "the client does not support WebAuthn")
                return .outcome("unsupported")
            case .domError(let text):
                context.shared[Self.errorKey] = .string(text)
                // The DOMException's name (`NotAllowedError`), without the client's message.
                let name = String(text.prefix { $0 != ":" })
                context.failureReason = JourneyFailure.Reason(
                    "webauthn_client_error", "the client's WebAuthn ceremony failed with \(name)",
                    ["error": .string(name)])
                return .outcome("error")
            case .result: return nil
            }
        }

        func step(
            _ context: inout NodeContext, registration: Callback.WebAuthnRegistrationOptions?, allow: [[UInt8]]
        )
            -> NodeAction
        {
            let challenge = challenge(&context)
            var callbacks: [Callback]
            if options.asScript {
                let script = Callback.WebAuthnScriptOptions(
                    challenge: challenge, relyingPartyId: options.domain, timeout: options.timeoutSeconds * 1000,
                    userVerification: options.userVerification,
                    credentials: registration?.excludeCredentials ?? allow)
                callbacks = [
                    registration.map {
                        .webAuthnRegistrationScript(
                            script, relyingPartyName: $0.relyingPartyName, userId: $0.userId, userName: $0.userName,
                            displayName: $0.displayName)
                    } ?? .webAuthnAuthenticationScript(script),
                    .webAuthnSpinnerScript, .webAuthnOutcome(),
                ]
            } else {
                let webAuthn = Callback.WebAuthnOptions(
                    challenge: Base64.encode(challenge), relyingPartyId: options.domain,
                    timeout: options.timeoutSeconds * 1000, userVerification: options.userVerification)
                callbacks = [
                    registration.map { .webAuthnRegistration(webAuthn, $0) }
                        ?? .webAuthnAuthentication(webAuthn, allowCredentials: allow),
                    .webAuthnOutcome(),
                ]
            }
            if case .authentication(let a) = kind, a.recoveryCodes {
                // "Not pressed" is 100, as for AM's other exit options.
                callbacks.append(
                    .confirmation(
                        prompt: "", messageType: 0, options: ["Use Recovery Code"], optionType: -1, defaultOption: 0,
                        preset: 100))
            }
            return .send(Step(callbacks: callbacks))
        }

        /// The relying party id AM defaults to: the server's host name.
        static func host(_ url: String) -> String {
            let rest = url.split(separator: "://", maxSplits: 1).last.map(String.init) ?? url
            return String(rest.prefix { $0 != "/" && $0 != ":" })
        }

        /// The server's origin: scheme, host and port of its public URL.
        static func origin(_ url: String) -> String {
            guard let separator = url.firstRange(of: "://") else { return url }
            let authority = url[separator.upperBound...].prefix { $0 != "/" }
            return String(url[..<separator.upperBound]) + authority
        }
    }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
