import AuthBridgeCore

/// The MFA policies an OATH client checks a credential's server-given `policies` JSON against
/// (`MfaPolicyEvaluator`: ping-ios-sdk `Commons/Commons/Policy/MfaPolicyEvaluator.swift`,
/// ping-android-sdk `mfa/commons/…/policy/MfaPolicyEvaluator.kt`). The evaluator runs its
/// policies in order; a policy named in the JSON that fails makes the result a failure naming
/// it; a policy not named is skipped; JSON that does not parse is compliant.
enum OathPolicy: String, CaseIterable {
    case biometricAvailable, deviceTampering

    /// A client made without `policyEvaluatorId` checks both (the SDKs' default evaluator).
    static let defaults: [OathPolicy] = [.biometricAvailable, .deviceTampering]

    /// The emulated phone has biometrics enrolled and is not tampered with (its tamper score is
    /// 0): `biometricAvailable` always holds; `deviceTampering` holds when 0 is below the
    /// threshold (`score`, default 0.8), so a server-given `{"deviceTampering":{"score":0}}` fails
    /// (`DeviceTamperingPolicy.swift`/`.kt`: compliant when score < threshold).
    func holds(_ data: JSONValue?) -> Bool {
        switch self {
        case .biometricAvailable: return true
        case .deviceTampering:
            let threshold = data?["score"]?.doubleValue ?? 0.8
            return Self.tamperScore < threshold
        }
    }

    static let tamperScore = 0.0

    /// The first policy of `policies` the JSON names and the phone fails, nil when compliant.
    static func failing(_ policies: [OathPolicy], json: String?) -> OathPolicy? {
        guard let json, !json.isEmpty, case .object(let object)? = try? JSONParser.parse(json) else { return nil }
        return policies.first { policy in object[policy.rawValue].map { !policy.holds($0) } ?? false }
    }
}
