import AuthBridgeCore

extension AM {
    /// AM's Device Signing Verifier node (ForgeRock/am-external auth-nodes
    /// `DeviceSigningVerifierNode.java`): it sends a DeviceSigningVerifierCallback with a fresh
    /// challenge (or, with `challenge: false`, the shared-state value `sharedStateAttribute` names)
    /// and verifies the JWS the app signs it with: the device is the user's bound device whose key
    /// id is the header's `kid`, the signature is that key's, the claims are as the Device Binding
    /// node checks them and `sub` is the user's universal id. Usernameless: with no user in the
    /// journey yet the callback names none, the JWS's `sub` says who signed, and success puts that
    /// user's name in shared state.
    ///
    /// Outcomes as AM: a user without bound devices is `noDeviceRegistered` (before any step when
    /// the journey has a user), an unknown `kid` `keyNotFound`, a wrong signature or claim
    /// `failure`, a client error the outcome of its name (`ClientNotRegistered` when the app has no
    /// key). A missing, unknown or locked user, or a `sub` that is not the journey's user, fails
    /// the journey as AM's node throws, or with `captureFailure` goes along `failure`. Each failure
    /// leaves its reason in shared state (`DeviceSigningVerifierNode.FAILURE`: `INVALID_CLAIM`,
    /// `INVALID_SIGNATURE`, `INVALID_USER`, `NOT_ACTIVE_USER`, `INVALID_SUBJECT`).
    struct DeviceSigningVerifierNode: JourneyNode {
        static let type = NodeType(name: "DeviceSigningVerifierNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                DeviceSigningVerifierNode(
                    randomChallenge: try s.bool("challenge", default: true),
                    sharedStateAttribute: try s.string("sharedStateAttribute", default: ""),
                    prompt: try DeviceBinding.Prompt.read(
                        &s, clientErrors: ["Unsupported", "Abort", "Timeout", "ClientNotRegistered"]),
                    captureFailure: try s.bool("captureFailure", default: false)))
        }

        static let challengeKey = "DeviceSigningVerifierNode.CHALLENGE"
        static let failureKey = "DeviceSigningVerifierNode.FAILURE"

        var randomChallenge: Bool
        var sharedStateAttribute: String
        var prompt: DeviceBinding.Prompt
        var captureFailure: Bool

        var outcomes: [String] {
            ["success", "failure", "noDeviceRegistered", "keyNotFound"] + prompt.clientErrorOutcomes
        }

        /// What ends the node other than an outcome: AM's `NodeProcessException`, with the reason
        /// it records.
        private struct Thrown: Error {
            var reason: String?
            var why: String
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            let inputs = context.answers?.first?.inputs ?? [:]
            let jws = JourneyValues.text(inputs["jws"])
            let clientError = JourneyValues.text(inputs["clientError"])
            do throws(Thrown) {
                if !jws.isEmpty { return try verify(jws, &context) }
                if !clientError.isEmpty {
                    guard outcomes.contains(clientError) else {
                        throw Thrown(why: "client error \"\(clientError)\" is not an outcome of the node")
                    }
                    context.failureReason = DeviceBinding.clientError(clientError)
                    return .outcome(clientError)
                }
                let user: DirectoryUser?
                if context.username.isEmpty {
                    user = nil
                } else {
                    let found = try validUser(context.username, context)
                    if found.devices.binding.isEmpty { return noDevice(found.username, &context) }
                    user = found
                }
                return .send(try step(for: user, &context))
            } catch {
                if let reason = error.reason { context.shared[Self.failureKey] = .string(reason) }
                let fields: JSONObject = error.reason.map { ["failure": .string($0)] } ?? [:]
                guard captureFailure else {
                    return AMFailure.nodeError(
                        &context, "DeviceSigningVerifierNode", error.why, code: "signing_refused", fields)
                }
                context.failureReason = JourneyFailure.Reason("signing_refused", error.why, fields)
                return .outcome("failure")
            }
        }

        private func noDevice(_ username: String, _ context: inout NodeContext) -> NodeAction {
            context.failureReason = JourneyFailure.Reason("binding_no_device", "\(username) has no bound device")
            return .outcome("noDeviceRegistered")
        }

        private func step(for user: DirectoryUser?, _ context: inout NodeContext) throws(Thrown) -> Step {
            let challenge: String
            if randomChallenge {
                challenge = DeviceBinding.challenge(context.random)
                context.shared[Self.challengeKey] = .string(challenge)
            } else {
                challenge = try sharedChallenge(context)
            }
            return Step(callbacks: [
                .deviceSigningVerifier(
                    userId: user.map { AMIdentity.universalId($0.username, realm: context.config.realm) } ?? "",
                    challenge: challenge,
                    prompt: Callback.DevicePrompt(
                        title: prompt.title, subtitle: prompt.subtitle, description: prompt.description,
                        timeout: prompt.timeout))
            ])
        }

        private func sharedChallenge(_ context: NodeContext) throws(Thrown) -> String {
            guard let value = context.shared.value(path: sharedStateAttribute), value != .null else {
                throw Thrown(why: "\(sharedStateAttribute) missing from shared state")
            }
            return JourneyValues.text(value)
        }

        private func verify(_ compact: String, _ context: inout NodeContext) throws(Thrown) -> NodeAction {
            let jws: DeviceBinding.DeviceJWS
            do throws(DeviceBinding.Refusal) { jws = try DeviceBinding.DeviceJWS(compact) } catch {
                context.failureReason = error.reason("signing_refused", "signed")
                return .outcome("failure")
            }
            let user = try validUser(try signer(of: jws, context), context)
            if user.devices.binding.isEmpty { return noDevice(user.username, &context) }
            guard let index = user.devices.binding.firstIndex(where: { $0.keyId == jws.keyId }) else {
                context.failureReason = JourneyFailure.Reason(
                    "binding_key_not_found", "the signed JWS's kid is not a key bound to \(user.username)")
                return .outcome("keyNotFound")
            }
            let challenge =
                randomChallenge ? JourneyValues.text(context.shared[Self.challengeKey]) : try sharedChallenge(context)
            do throws(DeviceBinding.Refusal) {
                try jws.validateClaims(
                    challenge: challenge, applicationIds: prompt.applicationIds, now: context.clock.now)
            } catch {
                context.shared[Self.failureKey] = "INVALID_CLAIM"
                context.failureReason = error.reason("signing_refused", "signed")
                return .outcome("failure")
            }
            do throws(DeviceBinding.Refusal) {
                try jws.verify(with: user.devices.binding[index].key)
            } catch {
                context.shared[Self.failureKey] = "INVALID_SIGNATURE"
                context.failureReason = error.reason("signing_refused", "signed")
                return .outcome("failure")
            }
            let now = context.clock.now
            _ = context.users.update(username: user.username) { $0.devices.binding[index].record.lastAccessDate = now }
            context.shared["username"] = .string(user.username)
            return .outcome("success")
        }

        /// `getUsername`: the JWS's subject, which must be the journey's user when it has one.
        private func signer(of jws: DeviceBinding.DeviceJWS, _ context: NodeContext) throws(Thrown) -> String {
            let subject = jws.subject
            guard !subject.isEmpty else { throw Thrown(reason: "INVALID_SUBJECT", why: "the JWS has no subject") }
            guard !context.username.isEmpty else { return AMIdentity.username(universalId: subject) }
            guard let user = context.users.find(username: context.username) else {
                throw Thrown(reason: "INVALID_USER", why: "no user \"\(context.username)\"")
            }
            guard subject == AMIdentity.universalId(user.username, realm: context.config.realm) else {
                throw Thrown(reason: "INVALID_SUBJECT", why: "the JWS's subject is not \(user.username)")
            }
            return user.username
        }

        /// `validateUser`: the user exists and is not locked.
        private func validUser(_ username: String, _ context: NodeContext) throws(Thrown) -> DirectoryUser {
            guard let user = context.users.find(username: username) else {
                throw Thrown(reason: "INVALID_USER", why: "no user \"\(username)\"")
            }
            if let lock = user.lock, lock.holds(at: context.clock.now) {
                throw Thrown(reason: "NOT_ACTIVE_USER", why: "user \"\(username)\" is not active")
            }
            return user
        }
    }
}
