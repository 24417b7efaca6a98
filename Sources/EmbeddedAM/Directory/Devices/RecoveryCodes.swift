import AuthBridgeCore

/// Recovery codes as every kind of device keeps them: the SHA-256 of each unused code, each
/// spent once. OATH, push and WebAuthn devices hold them; a kind that holds them adds its case
/// to `UserDevices.spendRecoveryCode`.
public enum RecoveryCodes {
    /// AM makes ten codes of ten letters and digits for each registered device.
    public static let count = 10
    public static let length = 10

    public static func make(_ random: RandomSource) -> [String] { (0..<count).map { _ in random.alphanumeric(length) } }

    public static func digest(_ code: String) -> [UInt8] { SHA256.hash(Array(code.utf8)) }

    /// Removes the code's digest and says whether it was there. Every stored digest is compared
    /// in constant time, so the time taken says nothing of which one matched.
    public static func spend(_ code: String, from digests: inout [[UInt8]]) -> Bool {
        let candidate = digest(code)
        var found: Int?
        for (index, stored) in digests.enumerated() where ConstantTime.equal(stored, candidate) { found = index }
        guard let found else { return false }
        digests.remove(at: found)
        return true
    }
}

extension UserDevices {
    /// Spends a recovery code of the user's first device of a kind, as AM's Recovery Code
    /// Collector Decision node does (`DeviceSettings.useRecoveryCode`); false when there is no
    /// such device or the code is not one of its unused ones.
    public mutating func spendRecoveryCode(_ code: String, kind: DeviceKind) -> Bool {
        switch kind {
        case .oath:
            guard !oath.isEmpty else { return false }
            return RecoveryCodes.spend(code, from: &oath[0].recoveryCodeDigests)
        case .push:
            guard !push.isEmpty else { return false }
            return RecoveryCodes.spend(code, from: &push[0].recoveryCodeDigests)
        case .webauthn:
            guard !webAuthn.isEmpty else { return false }
            return RecoveryCodes.spend(code, from: &webAuthn[0].recoveryCodeDigests)
        case .binding:
            return false
        }
    }
}
