import AuthBridgeCore

extension AM {
    /// AM's Device Binding node (ForgeRock/am-external auth-nodes `DeviceBindingNode.java`): it
    /// sends the journey's user a DeviceBindingCallback with a fresh challenge; the app makes a
    /// key pair guarded by the authentication type asked for and answers with a JWS that carries
    /// the public key as a JWK in its header and the challenge in its claims. The node verifies
    /// the JWS against that key, checks the claims (`exp`, `nbf`, `iat`, `iss` among
    /// `applicationIds`, `sub`, `challenge`) and saves the device on the user's profile (or, with
    /// `postponeDeviceProfileStorage`, leaves it in transient state for the Device Binding
    /// Storage node). Anything wrong with the JWS is `failure`, and nothing is saved. A client
    /// error the app reports (`Abort`, `Timeout`, `Unsupported`) is the outcome of that name. With
    /// `maxSavedDevices` and that many devices bound already: `exceedDeviceLimit`, before any step.
    /// No user, or a locked one, fails the journey, as AM's node throws.
    struct DeviceBindingNode: JourneyNode {
        static let type = NodeType(name: "DeviceBindingNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let authenticationType = try s.string("authenticationType", default: "BIOMETRIC_ALLOW_FALLBACK")
            guard authenticationTypes.contains(authenticationType) else {
                throw SettingsError(
                    reason:
                        "\"authenticationType\" must be one of \(authenticationTypes.joined(separator: ", ")), got \"\(authenticationType)\""
                )
            }
            return .node(
                DeviceBindingNode(
                    authenticationType: authenticationType,
                    prompt: try DeviceBinding.Prompt.read(&s, clientErrors: ["Unsupported", "Abort", "Timeout"]),
                    maxSavedDevices: try s.int("maxSavedDevices", default: 0, in: 0...10000),
                    attestation: try s.bool("attestation", default: false),
                    postpone: try s.bool("postponeDeviceProfileStorage", default: false)))
        }

        /// AM's `AuthenticationType` values.
        static let authenticationTypes = ["BIOMETRIC_ONLY", "BIOMETRIC_ALLOW_FALLBACK", "APPLICATION_PIN", "NONE"]
        static let challengeKey = "DeviceBindingNode.CHALLENGE"
        /// The name a device gets when the app sends none (`deviceName` in the node's bundle).
        static let defaultDeviceName = "Device Name"

        var authenticationType: String
        var prompt: DeviceBinding.Prompt
        var maxSavedDevices: Int
        var attestation: Bool
        var postpone: Bool

        var outcomes: [String] {
            ["success", "failure"] + (maxSavedDevices > 0 ? ["exceedDeviceLimit"] : []) + prompt.clientErrorOutcomes
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let user = context.users.find(username: context.username),
                !(user.lock?.holds(at: context.clock.now) ?? false)
            else { return AMFailure.nodeError(&context, "DeviceBindingNode", "user does not exist or inactive") }
            if maxSavedDevices > 0, user.devices.binding.count >= maxSavedDevices {
                context.failureReason = JourneyFailure.Reason(
                    "binding_device_limit",
                    "\(user.username) already has \(maxSavedDevices) bound devices, the node's limit",
                    ["maxDevices": .int(Int64(maxSavedDevices))])
                return .outcome("exceedDeviceLimit")
            }
            let inputs = context.answers?.first?.inputs ?? [:]
            let jws = JourneyValues.text(inputs["jws"])
            let deviceId = JourneyValues.text(inputs["deviceId"])
            let clientError = JourneyValues.text(inputs["clientError"])
            if !jws.isEmpty, !deviceId.isEmpty {
                let deviceName = JourneyValues.text(inputs["deviceName"])
                do throws(DeviceBinding.Refusal) {
                    let device = try bind(jws, deviceId: deviceId, deviceName: deviceName, context)
                    if postpone {
                        context.transient[DeviceBinding.deviceKey] = device.stateJSON
                    } else {
                        _ = context.users.update(username: user.username) { Self.save(device, in: &$0.devices) }
                    }
                    return .outcome("success")
                } catch {
                    logInfo("journey \(context.journeyName), node \(context.nodeId) (DeviceBindingNode): \(error)")
                    context.failureReason = error.reason("binding_refused", "binding")
                    return .outcome("failure")
                }
            }
            if !clientError.isEmpty {
                guard outcomes.contains(clientError) else {
                    return AMFailure.nodeError(
                        &context, "DeviceBindingNode", "client error \"\(clientError)\" is not an outcome of the node")
                }
                context.failureReason = DeviceBinding.clientError(clientError)
                return .outcome(clientError)
            }
            let challenge = DeviceBinding.challenge(context.random)
            context.shared[Self.challengeKey] = .string(challenge)
            return .send(
                Step(callbacks: [
                    .deviceBinding(
                        userId: AMIdentity.universalId(user.username, realm: context.config.realm),
                        username: user.username, authenticationType: authenticationType, challenge: challenge,
                        prompt: Callback.DevicePrompt(
                            title: prompt.title, subtitle: prompt.subtitle, description: prompt.description,
                            timeout: prompt.timeout),
                        attestation: attestation)
                ]))
        }

        /// The device the JWS binds, once its claims, its signature by the key it carries and
        /// (when asked) its attestation pass.
        private func bind(
            _ compact: String, deviceId: String, deviceName: String, _ context: NodeContext
        ) throws(DeviceBinding.Refusal) -> BoundDeviceProfile {
            let jws = try DeviceBinding.DeviceJWS(compact)
            try jws.validateClaims(
                challenge: JourneyValues.text(context.shared[Self.challengeKey]),
                applicationIds: prompt.applicationIds, now: context.clock.now)
            guard let key = jws.embeddedKey else { throw .noKey }
            try jws.verify(with: key)
            // Android key attestation needs a certificate chain rooted in Google's attestation
            // keys, which no emulated key has; iOS keys are not attested (AM skips them).
            if attestation, jws.claims["platform"]?.stringValue != "ios" { throw .invalidClaim("attestation") }
            let keyId = key["kid"]?.stringValue ?? jws.keyId
            guard !keyId.isEmpty else { throw .noKey }
            return BoundDeviceProfile(
                record: DeviceRecord(
                    uuid: keyId, deviceName: deviceName.isEmpty ? Self.defaultDeviceName : deviceName,
                    createdDate: context.clock.now),
                deviceId: deviceId, key: key)
        }

        /// Saves a device, in place of one with the same key id.
        static func save(_ device: BoundDeviceProfile, in devices: inout UserDevices) {
            devices.binding.removeAll { $0.uuid == device.uuid }
            devices.binding.append(device)
        }
    }

    /// AM's Device Binding Storage node (ForgeRock/am-external auth-nodes
    /// `DeviceBindingStorageNode.java`): saves the device a Device Binding node left in
    /// transient state (`postponeDeviceProfileStorage`) on the journey's user: `true`; no user
    /// or no device: `false`.
    struct DeviceBindingStorageNode: JourneyNode {
        static let type = NodeType(name: "DeviceBindingStorageNode", asksForInput: false) {
            (_: inout Settings, _: AMNodeSource) throws(SettingsError) in .node(DeviceBindingStorageNode())
        }

        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard context.users.contains(username: context.username),
                let state = context.transient[DeviceBinding.deviceKey],
                let device = try? BoundDeviceProfile(state: StateReader(state, path: DeviceBinding.deviceKey))
            else {
                context.failureReason = JourneyFailure.Reason(
                    "binding_nothing_to_store", "no user or no device a Device Binding node left to store")
                return .outcome("false")
            }
            _ = context.users.update(username: context.username) { DeviceBindingNode.save(device, in: &$0.devices) }
            return .outcome("true")
        }
    }
}
