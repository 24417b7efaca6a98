import AuthBridgeCore

extension AM {
    /// AM's OATH Registration node (`OathRegistrationNode`, `OathRegistrationHelper` and
    /// `MultiFactorRegistrationUtilities` in ForgeRock/am-external, releases/8.0.2, auth-nodes).
    /// First visit: a fresh device (a random secret of `minSharedSecretLength` hex digits), kept
    /// in shared state as `oathDeviceProfile` (base64 of AM's device JSON, with
    /// `oathEnableRecoveryCode`), and the step: the scan message, the QR script, the
    /// `otpauth://` URI in the hidden value `mfaDeviceRegistration`, a Confirmation "Next".
    /// "Next" (option 0) saves the device on the user (one OATH device per user: a new one
    /// replaces the old), with ten recovery codes when `generateRecoveryCodes` (into transient
    /// `recoveryCodes`/`recoveryCodeDeviceName` for the Recovery Code Display node), and clears
    /// the two shared keys, and marks OATH as not skippable for the user (`oath2faEnabled`); with `postponeDeviceProfileStorage` it saves nothing and leaves them
    /// for the OATH Token Verifier. Any other answer starts over with a new secret. No code is
    /// checked here. No username in shared state is a node error, as in AM.
    struct OathRegistrationNode: JourneyNode {
        static let type = NodeType(name: "OathRegistrationNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let issuer = try s.string("issuer", default: "ForgeRock")
            guard !issuer.isEmpty else { throw SettingsError(reason: "\"issuer\" must not be empty") }
            return .node(
                OathRegistrationNode(
                    issuer: issuer,
                    accountAttribute: try OathSettings.choice(&s, "accountName", OathSettings.accountAttributes),
                    backgroundColor: try s.string("bgColor", default: "032b75"),
                    imageURL: try s.string("imgUrl", default: ""),
                    generateRecoveryCodes: try s.bool("generateRecoveryCodes", default: true),
                    scanMessage: try s.localized("scanQRCodeMessage"),
                    digits: try OathSettings.choice(&s, "passwordLength", OathSettings.digits),
                    minSharedSecretLength: try s.int("minSharedSecretLength", default: 32, in: 1...1024),
                    hotp: try OathSettings.choice(&s, "algorithm", OathSettings.algorithms),
                    period: try s.int("totpTimeInterval", default: 30, in: 1...86_400),
                    hashAlgorithm: try OathSettings.choice(&s, "totpHashAlgorithm", OathSettings.hashAlgorithms),
                    addChecksum: try s.bool("addChecksum", default: false),
                    truncationOffset: try s.int("truncationOffset", default: -1, in: -1...1024),
                    postpone: try s.bool("postponeDeviceProfileStorage", default: false)))
        }

        static let defaultScanMessage =
            "Scan the QR code image below with the ForgeRock Authenticator app to register your device with your login."

        var issuer: String
        var accountAttribute: String
        var backgroundColor: String
        var imageURL: String
        var generateRecoveryCodes: Bool
        var scanMessage: LocalizedText?
        var digits: OATH.Digits
        var minSharedSecretLength: Int
        var hotp: Bool
        var period: Int
        var hashAlgorithm: OATH.Algorithm
        var addChecksum: Bool
        var truncationOffset: Int
        var postpone: Bool

        var outcomes: [String] { ["successOutcome", "failureOutcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard !context.username.isEmpty else {
                return AMFailure.nodeError(&context, "OathRegistrationNode", "expected username to be set")
            }
            if let answers = context.answers, answers.count == 4, JourneyValues.optionIndex(answers[3].value) == 0 {
                return next(&context)
            }
            guard let user = context.users.find(username: context.username) else {
                return AMFailure.nodeError(&context, "OathRegistrationNode", "failed to get the identity object")
            }
            // AM's createDeviceProfile: an even number of hex digits, at least the minimum.
            let secretLength = (minSharedSecretLength + 1) / 2
            let device = OathDeviceProfile(
                record: DeviceRecord(
                    uuid: context.random.uuid(), deviceName: OathDeviceProfile.defaultName,
                    createdDate: context.clock.now),
                sharedSecret: context.random.bytes(secretLength), checksumDigit: addChecksum,
                truncationOffset: truncationOffset)
            context.shared[OathSharedState.profileKey] = .string(OathSharedState.encode(device))
            context.shared[OathSharedState.recoveryCodesKey] = .bool(generateRecoveryCodes)
            let uri = registrationURI(device: device, user: user)
            return .send(
                Step(callbacks: [
                    .textOutput(message: scanMessage?.text ?? Self.defaultScanMessage, messageType: "0"),
                    .qrCodeScript(uri: uri, callbackIndex: 0),
                    .mfaDeviceRegistration(uri: uri),
                    .confirmation(
                        prompt: "", messageType: 0, options: ["Next"], optionType: -1, defaultOption: 0, preset: 0),
                ]))
        }

        /// "Next": the device from shared state saved on the user, or left there when postponed.
        private func next(_ context: inout NodeContext) -> NodeAction {
            if postpone { return .outcome("successOutcome") }
            guard let device = OathSharedState.device(context.shared) else {
                logWarn("journey \(context.journeyName), node \(context.nodeId): no OATH device in shared state")
                return cleanedUp(&context, "failureOutcome")
            }
            var saved = device
            saved.record.createdDate = context.clock.now
            saved.record.lastAccessDate = context.clock.now
            var codes: [String] = []
            if generateRecoveryCodes {
                codes = RecoveryCodes.make(context.random)
                saved.recoveryCodeDigests = codes.map(RecoveryCodes.digest)
            }
            let found = context.users.update(username: context.username) { $0.registerOath(saved) }
            guard found else {
                return AMFailure.nodeError(&context, "OathRegistrationNode", "failed to get the identity object")
            }
            if !codes.isEmpty {
                context.transient[RecoveryCodeDisplayNode.codesKey] = .array(codes.map { .string($0) })
                context.transient[RecoveryCodeDisplayNode.deviceNameKey] = .string(saved.deviceName)
            }
            return cleanedUp(&context, "successOutcome")
        }

        private func cleanedUp(_ context: inout NodeContext, _ outcome: String) -> NodeAction {
            context.shared[OathSharedState.profileKey] = nil
            context.shared[OathSharedState.recoveryCodesKey] = nil
            return .outcome(outcome)
        }

        /// `otpauth://totp/<issuer>:<account>?secret=…&period=…&digits=…&b=…[&image=…][&algorithm=…]&uid=…&oid=…`,
        /// in AM's order (`buildURIParameters`); issuer and account name fragment-escaped, the
        /// secret in padded base32, `uid` and `oid` the username and device uuid in base64url.
        func registrationURI(device: OathDeviceProfile, user: DirectoryUser) -> String {
            var params: [(String, String)] = [("secret", Base32.encode(device.sharedSecret))]
            params.append(hotp ? ("counter", String(device.counter)) : ("period", String(period)))
            params.append(("digits", String(digits.rawValue)))
            params.append(("b", backgroundColor.hasPrefix("#") ? String(backgroundColor.dropFirst()) : backgroundColor))
            params.append(("image", imageURL))
            if !hotp, hashAlgorithm != .sha1 { params.append(("algorithm", hashAlgorithm.rawValue)) }
            params.append(("uid", Base64URL.encode(Array(user.username.utf8))))
            params.append(("oid", Base64URL.encode(Array(device.uuid.utf8))))
            let query = params.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            let account = OathSettings.accountName(of: user, attribute: accountAttribute)
            return "otpauth://\(hotp ? "hotp" : "totp")/\(OathSettings.fragmentEscaped(issuer)):"
                + "\(OathSettings.fragmentEscaped(account))?\(query)"
        }
    }
}
