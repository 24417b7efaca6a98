import AuthBridgeCore

extension AM {
    /// AM's Push Sender (ForgeRock/am-external auth-nodes `push/PushAuthenticationSenderNode.java`,
    /// `PushType.java`, `PushNumbersChallenge.java`). For a user with a push device it signs the
    /// notification as AM does (an HS256 JWT under the device's shared secret with the mechanism
    /// uid `u`, a fresh challenge `c`, the load balancer cookie `l`, the text `m`, the push type
    /// `k`, the time sent `i`, the lifetime in seconds `t`, the user `d`, the custom payload `p`,
    /// and for "Display Challenge Code" three numbers `n`), expects the answer, hands it to the
    /// push sender, and goes `SENT`. `NOT_REGISTERED` when the user has no device (or never set
    /// up push), `SKIPPED` when the user opted out (never when `mandatory`). A missing username
    /// or a push already sent in this journey fails the journey, or goes `FAILURE` with the
    /// reason in `PushAuthFailureReason` when `captureFailure`.
    struct PushAuthenticationSenderNode: JourneyNode {
        static let type = NodeType(name: "PushAuthenticationSenderNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let pushType = try s.string("pushType", default: "DEFAULT")
            guard let kind = PushKind(rawValue: pushType) else {
                throw SettingsError(reason: "\"pushType\" must be DEFAULT, CHALLENGE or BIOMETRIC")
            }
            return .node(
                PushAuthenticationSenderNode(
                    messageTimeout: try s.int("messageTimeout", default: 120_000, in: 1...86_400_000),
                    userMessage: try s.localized("userMessage")?.text ?? "Login attempt from {{user}} at {{issuer}}",
                    mandatory: try s.bool("mandatory", default: false),
                    contextInfo: try s.bool("contextInfo", default: false),
                    customPayload: try s.strings("customPayload", nonEmpty: false) ?? [], pushType: kind,
                    captureFailure: try s.bool("captureFailure", default: false)))
        }

        /// The export's `pushType` (AM's `PushType` by name).
        enum PushKind: String {
            case tapToAccept = "DEFAULT"
            case displayChallenge = "CHALLENGE"
            case biometric = "BIOMETRIC"
            /// The `k` claim.
            var claim: String { rawValue.lowercased() }
        }

        /// `FailureReason`: what `PushAuthFailureReason` names, and the error AM throws otherwise.
        enum FailureReason: String {
            case missingUsername = "MISSING_USERNAME"
            case senderAlreadyUsed = "SENDER_ALREADY_USED"
            case transmissionFailure = "TRANSMISSION_FAILURE"
            var message: String {
                switch self {
                case .missingUsername: "Expected username to be set."
                case .senderAlreadyUsed:
                    "Message ID is already set! Must finish one push authentication before starting a new one."
                case .transmissionFailure:
                    "AuthenticatorPush :: sendMessage() : Failed to transmit message through PushService."
                }
            }
        }

        /// Milliseconds.
        var messageTimeout: Int
        var userMessage: String
        var mandatory: Bool
        var contextInfo: Bool
        var customPayload: [String]
        var pushType: PushKind
        var captureFailure: Bool

        var outcomes: [String] {
            ["SENT", "NOT_REGISTERED"] + (mandatory ? [] : ["SKIPPED"]) + (captureFailure ? ["FAILURE"] : [])
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let username = context.shared["username"]?.stringValue else {
                return failure(.missingUsername, &context)
            }
            if let sent = context.shared[Push.messageIdKey], sent != .null {
                return failure(.senderAlreadyUsed, &context)
            }
            guard let user = context.users.find(username: username) else {
                return failure(.transmissionFailure, &context)
            }
            let device = user.devices.push.first
            let skip = mandatory ? .notSkippable : Push.skip(user)
            if skip == .skippable { return .outcome("SKIPPED") }
            guard skip == .notSkippable, let device else {
                context.shared["mfaMethod"] = "push"
                return .outcome("NOT_REGISTERED")
            }
            guard let secret = Base64.decode(device.sharedSecret), let claims = claims(user, device, &context) else {
                return failure(.transmissionFailure, &context)
            }
            let messageId = context.push.newMessageId(.authenticate)
            context.push.expect(
                messageId, type: .authenticate, secret: secret, challenge: JourneyValues.text(claims["c"]))
            context.push.send(
                PushDelivery(
                    communicationId: device.communicationId, deviceId: device.deviceId, messageId: messageId,
                    message: JWT(claims: claims).signed(key: secret), subject: JourneyValues.text(claims["m"]),
                    pushType: pushType.claim))
            context.shared[Push.messageIdKey] = .string(messageId)
            context.shared[Push.timeToLiveKey] = .int(Int64(messageTimeout))
            context.shared[Push.mechanismUidKey] = .string(device.mechanismUid)
            return .outcome("SENT")
        }

        /// The notification's claims; nil when the custom payload is past AM's 3 KB.
        private func claims(
            _ user: DirectoryUser, _ device: PushDeviceProfile, _ context: inout NodeContext
        )
            -> JSONObject?
        {
            let text = Push.replacing(
                "{{issuer}}", in: Push.replacing("{{user}}", in: userMessage, with: user.username), with: device.issuer)
            var claims: JSONObject = [
                "u": .string(device.mechanismUid),
                "l": .string(Base64.encode(Array(PushService.loadBalancerCookie.utf8))),
                "c": .string(context.push.randomBytes()), "m": .string(text), "k": .string(pushType.claim),
                "i": .string(String(Int64((context.clock.now * 1000).rounded(.down)))),
                "t": .string(String(messageTimeout / 1000)), "d": .string(user.username),
            ]
            var payload: JSONObject = [:]
            for key in customPayload { if let value = context.shared.value(path: key) { payload[key] = value } }
            let payloadText = JSONWriter().string(.object(payload))
            guard payloadText.utf8.count <= 3 * 1024 else { return nil }
            claims["p"] = .string(payloadText)
            // No request headers or device location reach the embedded server's nodes.
            if contextInfo { claims["x"] = "{}" }
            if pushType == .displayChallenge {
                let numbers = Self.numbers(context.random)
                claims["n"] = .string(numbers.choices.map(String.init).joined(separator: ","))
                context.shared[Push.numberChallengeKey] = .string(String(numbers.answer))
            }
            return claims
        }

        /// AM's number challenge: three different numbers from 10 to 99 in ascending order for
        /// the phone, one of them, at random, for the page.
        static func numbers(_ random: RandomSource) -> (choices: [Int], answer: Int) {
            var pool = Array(10..<100)
            var choices: [Int] = []
            for _ in 0..<3 { choices.append(pool.remove(at: Int(random.uniform(UInt64(pool.count))))) }
            choices.sort()
            return (choices, choices[Int(random.uniform(3))])
        }

        private func failure(_ reason: FailureReason, _ context: inout NodeContext) -> NodeAction {
            guard captureFailure else {
                return AMFailure.nodeError(&context, "PushAuthenticationSenderNode", reason.message)
            }
            context.shared["PushAuthFailureReason"] = .string(reason.rawValue)
            return .outcome("FAILURE")
        }
    }
}
