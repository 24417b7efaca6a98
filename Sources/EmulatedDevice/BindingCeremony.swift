import AuthBridgeCore

/// One device-binding or signing operation of the app's binding SDK, step by step, on the phone:
/// what `DeviceBindingCallback.bind` and `DeviceSigningVerifierCallback.sign` do (ping-ios
/// `Binding/Binding/PingBinding.swift`, ping-android `mfa/binding/…/journey/DeviceBindingCallback.kt`
/// and `DeviceSigningVerifierCallback.kt`, forgerock-ios-sdk `FRDeviceBinding`). A step either
/// asks the app for something only JS can give (a PIN from the app's PIN collector, a key from
/// its key selector: `Prompt`) or finishes. Prompts the SDK shows itself (the biometric prompt,
/// its own PIN dialog or key picker) are answered by the emulated user from the phone's queued
/// prompt answers (`PromptAnswer`; none queued: approve, with the key's own PIN, picking the
/// most recently bound key).
public struct BindingCeremony: Sendable {
    /// What the app configured for this call (the RN module's options and config).
    public struct Options: Sendable {
        public var style: BindingStyle
        /// Android's `signingAlgorithm`: RS256 or RS512 (the default); another name is refused
        /// when the key would sign (`unsupportedAlgorithm`).
        public var hash: RSA.Hash = .sha512
        public var unsupportedAlgorithm: String?
        /// `AppPinConfig.pinRetry` (3 on both SDKs).
        public var pinRetry = 3
        /// The app's PIN collector answers PIN prompts (`hasPinCollector`), else the SDK's dialog.
        public var appCollectsPin = false
        /// The app's key selector answers key choices (`hasUserKeySelector`), else the SDK's picker.
        public var appSelectsKey = false
        /// The PIN prompt's texts the app overrides (`appPin.prompt`), each over the callback's.
        public var pinTitle: String?
        public var pinSubtitle: String?
        public var pinDescription: String?
        /// Custom claims of a signature (`claims`).
        public var claims: JSONObject = [:]
        /// The user-key storage the keys are listed in (`BindingKey.storage`; nil: the default).
        public var storage: String?
        /// Fixed `iat`, `nbf`, `exp` (`jwt` options), Unix seconds.
        public var issuedAt: Int64?
        public var notBefore: Int64?
        public var expires: Int64?

        public init(style: BindingStyle) { self.style = style }
    }

    public struct PromptText: Equatable, Sendable {
        public var title: String
        public var subtitle: String
        public var description: String

        public init(title: String, subtitle: String, description: String) {
            self.title = title
            self.subtitle = subtitle
            self.description = description
        }
    }

    public enum Prompt: Equatable, Sendable {
        case pin(PromptText)
        /// The keys to choose from, oldest first.
        case userKey([BindingKey])
    }

    /// Where a PIN was asked: making the key (`register`) or opening it (`authenticate`).
    public enum Stage: Sendable { case registration, authentication }

    /// Why the operation failed, as the SDKs tell the causes apart.
    public enum Failure: Error, Equatable, Sendable {
        /// The device cannot guard a key so (no biometrics, an unknown type): `DeviceNotSupported`.
        case unsupported
        /// No key to sign with: `DeviceNotRegistered`.
        case notRegistered
        /// The user cancelled the SDK's own prompt.
        case cancelled
        /// The SDK's own prompt, or the operation, timed out.
        case timedOut
        /// The PIN prompt at `stage` was cancelled, or timed out waiting for the app.
        case pinCancelled(Stage, timedOut: Bool)
        /// A wrong PIN `pinRetry` times.
        case wrongPin
        /// The biometric prompt could not open the key when signing (the successor SDKs report
        /// it as a failed authentication, not as an unsupported device).
        case authenticationFailed
        /// The key selection was cancelled, timed out, or named no offered key.
        case keySelectionCancelled(timedOut: Bool)
        /// Custom claims used reserved names.
        case reservedClaims
        /// An algorithm the emulated key does not sign with (Android's `signingAlgorithm`).
        case unsupportedAlgorithm(String)

        /// The `clientError` the callback carries (ping-ios `DeviceBindingStatus.clientError`,
        /// ping-android `journey/DeviceBindingError.kt` `toClientError`).
        public var clientError: String {
            switch self {
            case .unsupported: "Unsupported"
            case .notRegistered: "ClientNotRegistered"
            case .timedOut: "Timeout"
            default: "Abort"
            }
        }
    }

    /// The signed answer: the JWS, and for a binding the device's name and id.
    public struct Signed: Equatable, Sendable {
        public var jws: String
        public var deviceName: String
        public var deviceId: String
    }

    public enum Step: Equatable, Sendable {
        case prompt(Prompt)
        case finished(Result<Signed, Failure>)
    }

    /// What the callback asked.
    public enum Request: Sendable {
        case bind(BindingRequest, deviceName: String?)
        /// `userId` empty: usernameless, the app picks one of its keys.
        case sign(userId: String, challenge: String, timeout: Int, prompt: PromptText)
    }

    public let request: Request
    public let options: Options
    private var state: State = .start

    private enum State: Sendable {
        case start
        /// Binding: the new key, not yet saved; the registration PIN.
        case bindRegistration
        case bindAuthentication(key: BindingKey, attempt: Int)
        case signChoosing([BindingKey])
        case signAuthentication(key: BindingKey, attempt: Int)
        case done
    }

    public init(_ request: Request, options: Options) {
        self.request = request
        self.options = options
    }

    /// The prompt texts a PIN prompt shows: the callback's, each the app overrides replaced.
    private var pinText: PromptText {
        var text: PromptText
        switch request {
        case .bind(let r, _): text = PromptText(title: r.title, subtitle: r.subtitle, description: r.description)
        case .sign(_, _, _, let prompt): text = prompt
        }
        if let title = options.pinTitle { text.title = title }
        if let subtitle = options.pinSubtitle { text.subtitle = subtitle }
        if let description = options.pinDescription { text.description = description }
        return text
    }

    // MARK: stepping

    /// The first step, on `phone` (a binding drops the user's earlier keys first, as both SDKs'
    /// `clearKeys` do before the new key is made).
    public mutating func start(on phone: inout Phone, now: Double, random: RandomSource) -> Step {
        switch request {
        case .bind(let r, _):
            guard Phone.authenticationTypes.contains(r.authenticationType) else { return finish(.unsupported) }
            phone.bindingKeys.removeAll { $0.userId == r.userId && $0.storage == options.storage }
            if r.authenticationType == "APPLICATION_PIN" {
                state = .bindRegistration
                return askPin(on: &phone, stage: .registration, now: now, random: random)
            }
            let key = BindingKey.make(
                style: options.style, userId: r.userId, username: r.username, authenticationType: r.authenticationType,
                now: now, random: random, pin: nil, storage: options.storage)
            if key.isGuarded, let refusal = Self.nativeRefusal(phone.takePromptAnswer()) { return finish(refusal) }
            return bound(key, on: &phone, now: now)
        case .sign(let userId, _, _, _):
            if options.claims.keys.contains(where: Self.reservedClaims.contains) {
                return finish(.reservedClaims)
            }
            let keys = phone.bindingKeys.filter { $0.storage == options.storage }
            let own = keys.last { !userId.isEmpty && $0.userId == userId }
            if let own { return authenticate(own, on: &phone, now: now, random: random) }
            // No key for the user the server named: the old SDK and ping-ios stop; ping-android's
            // `findByUserId(it) ?: findAll()` goes on to every key the app holds.
            if !userId.isEmpty, options.style != .pingAndroid { return finish(.notRegistered) }
            guard let newest = keys.last else { return finish(.notRegistered) }
            if keys.count == 1 || options.style == .forgeRockIOS {
                return authenticate(newest, on: &phone, now: now, random: random)
            }
            if options.appSelectsKey {
                state = .signChoosing(keys)
                return .prompt(.userKey(keys))
            }
            return authenticate(newest, on: &phone, now: now, random: random)
        }
    }

    /// The answer to the prompt the last step asked: a PIN or a key id, nil when the app
    /// cancelled (or the prompt timed out: `timedOut`).
    public mutating func answer(
        _ answer: String?, timedOut: Bool = false, on phone: inout Phone, now: Double, random: RandomSource
    ) -> Step {
        switch state {
        case .bindRegistration:
            guard let pin = answer, !(pin.isEmpty && options.style == .pingIOS) else {
                return finish(.pinCancelled(.registration, timedOut: timedOut))
            }
            return registered(pin: pin, on: &phone, now: now, random: random)
        case .bindAuthentication(let key, let attempt), .signAuthentication(let key, let attempt):
            guard let pin = answer else { return finish(.pinCancelled(.authentication, timedOut: timedOut)) }
            if key.opens(pin: pin) { return opened(key, on: &phone, now: now) }
            return retry(key, after: attempt, on: &phone, now: now, random: random)
        case .signChoosing(let keys):
            guard let id = answer, let key = keys.first(where: { $0.listedId == id }) else {
                return finish(.keySelectionCancelled(timedOut: timedOut))
            }
            return authenticate(key, on: &phone, now: now, random: random)
        case .start, .done:
            return .finished(.failure(.cancelled))
        }
    }

    /// Whether the ceremony waits for an answer.
    public var isWaiting: Bool {
        switch state {
        case .start, .done: false
        default: true
        }
    }

    // MARK: the steps

    private mutating func finish(_ failure: Failure) -> Step {
        state = .done
        return .finished(.failure(failure))
    }

    /// The SDK's own prompt, answered by the emulated user.
    static func nativeRefusal(_ answer: PromptAnswer) -> Failure? {
        switch answer {
        case .approve: nil
        case .cancel: .cancelled
        case .timeout: .timedOut
        case .unsupported: .unsupported
        }
    }

    /// A PIN prompt: to the app when it collects PINs, else the SDK's dialog and the emulated user.
    private mutating func askPin(on phone: inout Phone, stage: Stage, now: Double, random: RandomSource) -> Step {
        if options.appCollectsPin { return .prompt(.pin(pinText)) }
        switch phone.takePromptAnswer() {
        case .approve:
            switch state {
            case .bindAuthentication(let key, _), .signAuthentication(let key, _):
                return opened(key, on: &phone, now: now)
            default:
                return registered(pin: Self.emulatedUserPin, on: &phone, now: now, random: random)
            }
        case .cancel: return finish(.pinCancelled(stage, timedOut: false))
        case .timeout: return finish(.timedOut)
        case .unsupported: return finish(.unsupported)
        }
    }

    /// The PIN the emulated user types in the SDK's own dialog when it makes a key (and, knowing
    /// it, types again to open the key).
    static let emulatedUserPin = "1234"

    private mutating func registered(pin: String, on phone: inout Phone, now: Double, random: RandomSource) -> Step {
        guard case .bind(let r, _) = request else { return finish(.cancelled) }
        let key = BindingKey.make(
            style: options.style, userId: r.userId, username: r.username, authenticationType: r.authenticationType,
            now: now, random: random, pin: pin, storage: options.storage)
        guard options.style.pinPromptsAtBind > 1 else { return bound(key, on: &phone, now: now) }
        state = .bindAuthentication(key: key, attempt: 1)
        return askPin(on: &phone, stage: .authentication, now: now, random: random)
    }

    private mutating func authenticate(
        _ key: BindingKey, on phone: inout Phone, now: Double, random: RandomSource
    )
        -> Step
    {
        if key.authenticationType == "APPLICATION_PIN" {
            state = .signAuthentication(key: key, attempt: 1)
            return askPin(on: &phone, stage: .authentication, now: now, random: random)
        }
        if key.isGuarded, let refusal = Self.nativeRefusal(phone.takePromptAnswer()) {
            return finish(refusal == .unsupported && options.style != .forgeRockIOS ? .authenticationFailed : refusal)
        }
        return signed(with: key, now: now)
    }

    private mutating func retry(
        _ key: BindingKey, after attempt: Int, on phone: inout Phone, now: Double, random: RandomSource
    ) -> Step {
        guard attempt < max(options.pinRetry, 1) else { return finish(.wrongPin) }
        switch state {
        case .bindAuthentication: state = .bindAuthentication(key: key, attempt: attempt + 1)
        default: state = .signAuthentication(key: key, attempt: attempt + 1)
        }
        return askPin(on: &phone, stage: .authentication, now: now, random: random)
    }

    private mutating func opened(_ key: BindingKey, on phone: inout Phone, now: Double) -> Step {
        if case .bindAuthentication = state { return bound(key, on: &phone, now: now) }
        return signed(with: key, now: now)
    }

    /// The key is saved and signs the challenge with the public key in the header.
    private mutating func bound(_ key: BindingKey, on phone: inout Phone, now: Double) -> Step {
        guard case .bind(let r, let deviceName) = request else { return finish(.cancelled) }
        if let refusal = algorithmRefusal { return finish(refusal) }
        phone.bindingKeys.append(key)
        state = .done
        let claims = claims(for: key, challenge: r.challenge, timeout: r.timeout, now: now, binding: true)
        let jws = key.jws(
            claims: claims, embeddingKey: true, typed: options.style != .pingAndroid, hash: options.hash)
        return .finished(
            .success(Signed(jws: jws, deviceName: deviceName ?? phone.deviceName, deviceId: phone.deviceId)))
    }

    private mutating func signed(with key: BindingKey, now: Double) -> Step {
        guard case .sign(_, let challenge, let timeout, _) = request else { return finish(.cancelled) }
        if let refusal = algorithmRefusal { return finish(refusal) }
        state = .done
        let claims = claims(for: key, challenge: challenge, timeout: timeout, now: now, binding: false)
        let jws = key.jws(
            claims: claims, embeddingKey: options.style == .pingIOS, typed: options.style != .pingAndroid,
            hash: options.hash)
        return .finished(.success(Signed(jws: jws, deviceName: "", deviceId: "")))
    }

    private var algorithmRefusal: Failure? { options.unsupportedAlgorithm.map { .unsupportedAlgorithm($0) } }

    static let reservedClaims: Set<String> = ["sub", "exp", "iat", "nbf", "iss", "challenge"]

    /// The JWS's claims as each SDK writes them.
    private func claims(
        for key: BindingKey, challenge: String, timeout: Int, now: Double, binding: Bool
    )
        -> JSONObject
    {
        if options.style == .forgeRockIOS {
            return key.claims(challenge: challenge, now: now, timeout: timeout, binding: binding)
        }
        let seconds = Int64(now.rounded(.down))
        let iat = options.issuedAt ?? seconds
        let nbf = options.notBefore ?? seconds
        let exp = options.expires ?? seconds + Int64(timeout)
        var claims: JSONObject
        switch options.style {
        case .pingAndroid:
            claims = ["sub": .string(key.userId), "iss": .string(BindingKey.applicationId)]
            claims["exp"] = .int(exp)
            claims["iat"] = .int(iat)
            claims["nbf"] = .int(nbf)
            if binding {
                claims["platform"] = "android"
                claims["android-version"] = .int(BindingStyle.androidVersion)
            }
            claims["challenge"] = .string(challenge)
        default:
            claims = [
                "challenge": .string(challenge), "exp": .int(exp), "iat": .int(iat), "nbf": .int(nbf),
                "sub": .string(key.userId), "platform": "ios",
            ]
        }
        if !binding { for member in options.claims.members { claims[member.key] = member.value } }
        claims["iss"] = .string(BindingKey.applicationId)
        return claims
    }
}
