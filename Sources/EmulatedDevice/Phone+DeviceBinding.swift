import AuthBridgeCore

/// How the emulated user answers the phone's next biometric or PIN prompt. Queued on the phone
/// (`emulator.setBindingPrompt`); a prompt with nothing queued is approved. The app reports each
/// refusal as the SDKs do (forgerock-android-sdk forgerock-auth `devicebind/DeviceBindingStatus.kt`):
/// a cancel as `Abort`, a timeout as `Timeout`, no biometrics or PIN set up as `Unsupported`.
public enum PromptAnswer: String, CaseIterable, PhoneRecord {
    case approve, cancel, timeout, unsupported

    public static let stateKey = "promptAnswers"

    /// The client error the app sends for it; nil when the user approved.
    public var clientError: String? {
        switch self {
        case .approve: return nil
        case .cancel: return "Abort"
        case .timeout: return "Timeout"
        case .unsupported: return "Unsupported"
        }
    }

    public var stateJSON: JSONValue { ["answer": .string(rawValue)] }

    public init(state reader: StateReader) throws(StateError) {
        let text = try reader.string("answer")
        guard let answer = PromptAnswer(rawValue: text) else {
            throw StateError(
                "\(reader.path).answer: not a prompt answer (\(Self.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = answer
    }

    public var summaryJSON: JSONObject { ["answer": .string(rawValue)] }
}

/// What a DeviceBindingCallback asks of the phone's app.
public struct BindingRequest: Equatable, Sendable {
    public var userId: String
    public var username: String
    public var authenticationType: String
    public var challenge: String
    public var timeout: Int
    /// The prompt's texts (what a PIN prompt shows unless the app overrides them).
    public var title = ""
    public var subtitle = ""
    public var description = ""

    public init(userId: String, username: String, authenticationType: String, challenge: String, timeout: Int) {
        self.userId = userId
        self.username = username
        self.authenticationType = authenticationType
        self.challenge = challenge
        self.timeout = timeout
    }
}

/// The app's answer to a device-binding or signing callback: a JWS (with, for binding, the
/// device's name and id), or the client error the SDK reports.
public enum BindingAnswer: Equatable, Sendable {
    case signed(jws: String, deviceName: String, deviceId: String)
    case clientError(String)

    init(_ step: BindingCeremony.Step) {
        switch step {
        case .finished(.success(let signed)):
            self = .signed(jws: signed.jws, deviceName: signed.deviceName, deviceId: signed.deviceId)
        case .finished(.failure(let failure)): self = .clientError(failure.clientError)
        case .prompt: self = .clientError(BindingCeremony.Failure.cancelled.clientError)
        }
    }
}

extension Phone {
    static let authenticationTypes: Set<String> = [
        "BIOMETRIC_ONLY", "BIOMETRIC_ALLOW_FALLBACK", "APPLICATION_PIN", "NONE",
    ]

    /// The id the app reports for the device (the SDKs' `DeviceIdentifier`): stable for the
    /// phone, derived from its push token so a clone reports another.
    public var deviceId: String { String(SHA256.hash("device-id:" + deviceToken).hexString.prefix(40)) }
    public var deviceName: String { "Emulated phone \(id)" }

    /// The old SDK's `DeviceBindingCallback.bind` (`BindingCeremony` in `forgeRockIOS` style, every
    /// prompt answered by the emulated user): the user's earlier keys are dropped, a new P-256 key
    /// is made, the prompt of a guarded type is answered, and the key signs the challenge. A
    /// refused prompt leaves no key.
    public mutating func bind(_ request: BindingRequest, now: Double, random: RandomSource) -> BindingAnswer {
        var ceremony = BindingCeremony(.bind(request, deviceName: nil), options: .init(style: .forgeRockIOS))
        return BindingAnswer(ceremony.start(on: &self, now: now, random: random))
    }

    /// The old SDK's `DeviceSigningVerifierCallback.sign`: the key of the user the server named
    /// (with none named, the most recently bound key), after its prompt. No such key:
    /// `ClientNotRegistered`.
    public mutating func sign(userId: String, challenge: String, timeout: Int, now: Double) -> BindingAnswer {
        var ceremony = BindingCeremony(
            .sign(
                userId: userId, challenge: challenge, timeout: timeout,
                prompt: .init(title: "", subtitle: "", description: "")),
            options: .init(style: .forgeRockIOS))
        return BindingAnswer(ceremony.start(on: &self, now: now, random: ZeroRandom()))
    }

    /// Deletes the binding key of this id, or every one when `id` is nil; how many went.
    public mutating func deleteBindingKeys(id: String?) -> Int {
        let before = bindingKeys.count
        bindingKeys.removeAll { id == nil || $0.id == id }
        return before - bindingKeys.count
    }

    /// The answer to the prompt shown now: the first queued, or approval.
    mutating func takePromptAnswer() -> PromptAnswer {
        promptAnswers.isEmpty ? .approve : promptAnswers.removeFirst()
    }
}

/// Signing draws nothing (ES256 is deterministic, RFC 6979; RSA is too): a source that is never read.
private final class ZeroRandom: RandomSource {
    func next() -> UInt64 { 0 }
}
