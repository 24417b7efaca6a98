import AuthBridgeCore

extension AM {
    /// AM's Push Registration node (ForgeRock/am-external auth-nodes `push/PushRegistrationNode.java`,
    /// `PushRegistrationHelper.java`). A user without a push device gets a QR code step: an
    /// information text, the QR script, the `pushauth://` URI in the `mfaDeviceRegistration`
    /// hidden value, and a PollingWaitCallback of AM's poll interval (2000 ms). Each poll reads
    /// the registration message: answered → the device is saved with the authenticator's
    /// fields (and recovery codes when `generateRecoveryCodes`, handed on in transient state) →
    /// `successOutcome`; denied → `failureOutcome`; gone (past the push service's lifetime) →
    /// `timeoutOutcome`; unanswered → the same step, unless the polls so far add up to the
    /// `timeout` setting, counted as AM counts it: one poll interval per step sent, not the
    /// time that passed. A user who already has a device passes at once.
    struct PushRegistrationNode: JourneyNode {
        static let type = NodeType(name: "PushRegistrationNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let mapping = try s.string("accountName", default: "USERNAME")
            guard let attribute = Push.accountNameAttributes[mapping] else {
                throw SettingsError(
                    reason:
                        "\"accountName\" must be one of \(Push.accountNameAttributes.keys.sorted().joined(separator: ", "))"
                )
            }
            let issuer = try s.string("issuer", default: "ForgeRock")
            guard !issuer.isEmpty else { throw SettingsError(reason: "\"issuer\" must not be empty") }
            return .node(
                PushRegistrationNode(
                    issuer: issuer, accountAttribute: attribute,
                    bgColor: try s.string("bgColor", default: "032b75"), imgUrl: try s.string("imgUrl", default: ""),
                    generateRecoveryCodes: try s.bool("generateRecoveryCodes", default: true),
                    scanMessage: try s.localized("scanQRCodeMessage")?.text ?? Self.defaultScanMessage,
                    timeout: try s.int("timeout", default: 60, in: 1...86_400)))
        }

        static let defaultScanMessage =
            "Scan the QR code image below with the ForgeRock Authenticator app to register your device with your login."

        var issuer: String
        var accountAttribute: String
        var bgColor: String
        var imgUrl: String
        var generateRecoveryCodes: Bool
        var scanMessage: String
        /// Seconds.
        var timeout: Int

        var outcomes: [String] { ["successOutcome", "failureOutcome", "timeoutOutcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            if context.answers != nil {
                guard case .string(let messageId)? = context.shared[Push.messageIdKey] else {
                    return AMFailure.nodeError(&context, "PushRegistrationNode", "Unable to find push message ID")
                }
                return poll(messageId, &context)
            }
            let username = context.username
            guard !username.isEmpty else {
                return AMFailure.nodeError(&context, "PushRegistrationNode", "Expected username to be set.")
            }
            guard let user = context.users.find(username: username) else {
                return AMFailure.nodeError(&context, "PushRegistrationNode", "Failed to get the identity object")
            }
            if !user.devices.push.isEmpty { return cleanedUp(.outcome("successOutcome"), &context) }
            return start(user, &context)
        }

        private func start(_ user: DirectoryUser, _ context: inout NodeContext) -> NodeAction {
            let device: JSONObject = [
                "uuid": .string(context.random.uuid().lowercased()),
                "sharedSecret": .string(context.push.randomBytes()),
                "deviceName": .string(PushDeviceProfile.defaultName), "issuer": .string(issuer),
            ]
            let messageId = context.push.newMessageId(.register)
            let challenge = context.push.randomBytes()
            context.push.expect(
                messageId, type: .register, secret: Base64.decode(JourneyValues.text(device["sharedSecret"])) ?? [],
                challenge: challenge)
            context.shared[Push.deviceProfileKey] = .object(device)
            context.shared[Push.challengeKey] = .string(challenge)
            context.shared[Push.registrationTimeoutKey] = .int(Int64(Push.pollInterval))
            context.shared[Push.messageIdKey] = .string(messageId)
            return .send(step(user, device: device, messageId: messageId, challenge: challenge, context))
        }

        private func poll(_ messageId: String, _ context: inout NodeContext) -> NodeAction {
            guard case .object(let device)? = context.shared[Push.deviceProfileKey],
                let user = context.users.find(username: context.username)
            else {
                return AMFailure.nodeError(&context, "PushRegistrationNode", "No device profile found on shared state")
            }
            switch context.push.check(messageId) {
            case nil:
                return cleanedUp(.outcome("timeoutOutcome"), &context)
            case .success?:
                let answer = context.push.contents(messageId) ?? [:]
                context.push.delete(messageId)
                return save(device, answer: answer, user: user, &context)
            case .denied?:
                context.push.delete(messageId)
                return cleanedUp(.outcome("failureOutcome"), &context)
            case .unknown?:
                let elapsed = Int(context.shared[Push.registrationTimeoutKey]?.intValue ?? 0)
                // AM leaves the registration's shared state behind on this path.
                if elapsed >= timeout * 1000 { return .outcome("timeoutOutcome") }
                context.shared[Push.registrationTimeoutKey] = .int(Int64(elapsed + Push.pollInterval))
                let challenge = JourneyValues.text(context.shared[Push.challengeKey])
                return .send(step(user, device: device, messageId: messageId, challenge: challenge, context))
            }
        }

        private func save(
            _ device: JSONObject, answer: JSONObject, user: DirectoryUser, _ context: inout NodeContext
        ) -> NodeAction {
            let codes = generateRecoveryCodes ? RecoveryCodes.make(context.random) : []
            let now = context.clock.now
            let profile = PushDeviceProfile(
                record: DeviceRecord(
                    uuid: JourneyValues.text(device["uuid"]), deviceName: JourneyValues.text(device["deviceName"]),
                    createdDate: now),
                sharedSecret: JourneyValues.text(device["sharedSecret"]), issuer: JourneyValues.text(device["issuer"]),
                mechanismUid: JourneyValues.text(answer["mechanismUid"]),
                deviceId: JourneyValues.text(answer["deviceId"]),
                communicationId: JourneyValues.text(answer["communicationId"]),
                communicationType: JourneyValues.text(answer["communicationType"]),
                deviceType: JourneyValues.text(answer["deviceType"]),
                recoveryCodeDigests: codes.map(RecoveryCodes.digest))
            _ = context.users.update(username: user.username) {
                $0.devices.push.append(profile)
                $0.attributes[Push.skipAttribute] = "2"
            }
            if !codes.isEmpty {
                context.transient[Push.recoveryCodesKey] = .array(codes.map { .string($0) })
                context.transient[Push.recoveryCodeDeviceNameKey] = .string(profile.deviceName)
            }
            return cleanedUp(.outcome("successOutcome"), &context)
        }

        private func cleanedUp(_ action: NodeAction, _ context: inout NodeContext) -> NodeAction {
            for key in [Push.messageIdKey, Push.deviceProfileKey, Push.challengeKey] { context.shared[key] = nil }
            return action
        }

        private func step(
            _ user: DirectoryUser, device: JSONObject, messageId: String, challenge: String, _ context: NodeContext
        ) -> Step {
            let uri = registrationURI(
                user, device: device, messageId: messageId, challenge: challenge, config: context.config)
            return Step(callbacks: [
                .textOutput(message: scanMessage, messageType: "0"), .qrCodeScript(uri: uri, callbackIndex: 0),
                .hiddenValue(id: "mfaDeviceRegistration", value: uri),
                .pollingWait(waitTime: Push.pollInterval, message: "Waiting for response..."),
            ])
        }

        /// `pushauth://push/<issuer>:<account>?l&issuer&m&s&c&r&a&uid&pid&b&image`, in the order
        /// `PushRegistrationHelper.buildURIParameters` puts them.
        func registrationURI(
            _ user: DirectoryUser, device: JSONObject, messageId: String, challenge: String, config: EmbeddedAMConfig
        ) -> String {
            func encoded(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }
            func recoded(_ base64: String) -> String { Base64URL.encode(Base64.decode(base64) ?? []) }
            let endpoint = config.baseURL + "/json" + config.realmPath + "/push/sns/message?_action="
            var parameters: [(String, String)] = [
                ("l", encoded(PushService.loadBalancerCookie)), ("issuer", encoded(issuer)), ("m", messageId),
                ("s", recoded(JourneyValues.text(device["sharedSecret"]))), ("c", recoded(challenge)),
                ("r", encoded(endpoint + "register")), ("a", encoded(endpoint + "authenticate")),
                ("uid", encoded(user.username)), ("pid", encoded(JourneyValues.text(device["uuid"]))),
                ("b", bgColor.hasPrefix("#") ? String(bgColor.dropFirst()) : bgColor),
            ]
            parameters.append(("image", encoded(imgUrl)))
            return "pushauth://push/" + Push.fragmentEscaped(issuer) + ":"
                + Push.accountName(user, attribute: accountAttribute) + "?"
                + parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        }
    }
}
