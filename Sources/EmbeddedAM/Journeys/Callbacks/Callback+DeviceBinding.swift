import AuthBridgeCore

/// AM's device-binding callbacks, outputs and inputs in AM's wire order (the SDKs read them by
/// name: forgerock-android-sdk forgerock-auth `callback/DeviceBindingCallback.kt` and
/// `callback/DeviceSigningVerifierCallback.kt`; forgerock-ios-sdk `FRDeviceBinding`).
extension Callback {
    /// The texts of the prompt the app shows before it uses the key.
    struct DevicePrompt: Equatable, Sendable {
        var title: String
        var subtitle: String
        var description: String
        /// Seconds the app waits for the user.
        var timeout: Int
    }

    /// What the Device Binding node sends: the user, the authentication type the key must be
    /// guarded by (`BIOMETRIC_ONLY`, `BIOMETRIC_ALLOW_FALLBACK`, `APPLICATION_PIN`, `NONE`), the
    /// challenge to sign. The app answers with the JWS, its device name and id, or a client error.
    static func deviceBinding(
        userId: String, username: String, authenticationType: String, challenge: String, prompt: DevicePrompt,
        attestation: Bool
    ) -> Callback {
        Callback(
            type: .deviceBinding,
            output: [
                Field("userId", .string(userId)), Field("username", .string(username)),
                Field("authenticationType", .string(authenticationType)), Field("challenge", .string(challenge)),
                Field("title", .string(prompt.title)), Field("subtitle", .string(prompt.subtitle)),
                Field("description", .string(prompt.description)), Field("timeout", .int(Int64(prompt.timeout))),
                Field("attestation", .bool(attestation)),
            ],
            input: [Field("jws", ""), Field("deviceName", ""), Field("deviceId", ""), Field("clientError", "")])
    }

    /// What the Device Signing Verifier node sends: the challenge, and the user whose key must
    /// sign it (empty when the journey has no user yet: the app picks one of its keys). The app
    /// answers with the JWS or a client error.
    static func deviceSigningVerifier(userId: String, challenge: String, prompt: DevicePrompt) -> Callback {
        Callback(
            type: .deviceSigningVerifier,
            output: [
                Field("userId", .string(userId)), Field("challenge", .string(challenge)),
                Field("title", .string(prompt.title)), Field("subtitle", .string(prompt.subtitle)),
                Field("description", .string(prompt.description)), Field("timeout", .int(Int64(prompt.timeout))),
            ],
            input: [Field("jws", ""), Field("clientError", "")])
    }
}
