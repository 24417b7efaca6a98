import AuthBridgeCore

/// How a server checks a code from a user's OATH device, with AM's rules (`OathTotpVerifier`,
/// `OathHotpVerifier` in ForgeRock/am-external, releases/8.0.2, auth-nodes). The OATH Token
/// Verifier node checks with it, and so does the PingOne face's TOTP device: one set of window,
/// drift and replay rules for both.
///
/// A code must have 6 or 8 characters; its length, not the registration's, sets the digits
/// compared. TOTP: the step is the clock's plus the device's saved drift; a code of the last
/// accepted step is refused (so a code works once), then the current step, then
/// ±1…±`timeSteps` are tried (a later step before the earlier one); an earlier step's code is
/// refused while the last login is within the window. An accepted step more than
/// `maximumAllowedClockDrift` steps from the clock is refused ("out of sync"); otherwise it
/// becomes the last login and its distance the new drift. HOTP: HMAC-SHA1 at counters
/// `counter`…`counter + hotpWindowSize`, with the device's truncation offset; a match sets the
/// counter past it. AM computes a checksum device's code one digit longer than the code typed,
/// so such a device never verifies — here too.
public struct OathVerifier: Sendable, Equatable {
    public var hotp: Bool
    public var hotpWindowSize: Int
    public var period: Int
    public var timeSteps: Int
    public var hashAlgorithm: OATH.Algorithm
    public var maximumAllowedClockDrift: Int

    /// AM's defaults: TOTP, 30-second steps, a window of ±2 steps, at most 5 steps of drift.
    public init(
        hotp: Bool = false, hotpWindowSize: Int = 100, period: Int = 30, timeSteps: Int = 2,
        hashAlgorithm: OATH.Algorithm = .sha1, maximumAllowedClockDrift: Int = 5
    ) {
        self.hotp = hotp
        self.hotpWindowSize = hotpWindowSize
        self.period = period
        self.timeSteps = timeSteps
        self.hashAlgorithm = hashAlgorithm
        self.maximumAllowedClockDrift = maximumAllowedClockDrift
    }

    /// Whether the code is good now, updating the device's counter or last step and drift.
    public func verify(_ code: String, device: inout OathDeviceProfile, now: Int64) -> Bool {
        guard let digits = OATH.Digits(rawValue: code.utf16.count) else { return false }
        return hotp
            ? verifyHOTP(code, digits: digits, device: &device)
            : verifyTOTP(code, digits: digits, device: &device, now: now)
    }

    private func verifyHOTP(_ code: String, digits: OATH.Digits, device: inout OathDeviceProfile) -> Bool {
        guard !device.checksumDigit, device.counter >= 0 else { return false }
        for step in 0...max(hotpWindowSize, 0) {
            let counter = device.counter + step
            let expected = OATH.hotp(
                secret: device.sharedSecret, counter: UInt64(counter), digits: digits, algorithm: .sha1,
                truncationOffset: device.truncationOffset)
            if ConstantTime.equal(expected, code) {
                device.counter = counter + 1
                return true
            }
        }
        return false
    }

    private func verifyTOTP(_ code: String, digits: OATH.Digits, device: inout OathDeviceProfile, now: Int64) -> Bool {
        let interval = Int64(max(period, 1))
        let lastLoginStep = device.lastLogin / interval
        guard lastLoginStep >= 0 else { return false }
        let clockStep = now / interval
        let localStep = clockStep + device.clockDriftSeconds / interval
        if lastLoginStep == localStep { return false }
        let steps = Int64(max(timeSteps, 1))
        let sameWindow = lastLoginStep >= localStep - steps && lastLoginStep <= localStep + steps
        func matches(_ step: Int64) -> Bool {
            ConstantTime.equal(
                OATH.hotp(
                    secret: device.sharedSecret, counter: UInt64(bitPattern: step), digits: digits,
                    algorithm: hashAlgorithm), code)
        }
        func accept(_ step: Int64) -> Bool {
            let drift = step - clockStep
            guard abs(drift) <= Int64(maximumAllowedClockDrift) else { return false }
            device.lastLogin = step * interval
            device.clockDriftSeconds = drift * interval
            return true
        }
        if matches(localStep) { return accept(localStep) }
        for offset in 1...steps {
            if matches(localStep + offset) { return accept(localStep + offset) }
            if matches(localStep - offset) { return sameWindow ? false : accept(localStep - offset) }
        }
        return false
    }
}
