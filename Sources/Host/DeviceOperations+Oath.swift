import AuthBridgeCore
import EmulatedDevice

/// What a test does with a phone's authenticator app (`emulator.scanOath`, `emulator.oathCode`):
/// scan the `otpauth://` URI a registration step showed, and read the code the app shows now,
/// on the daemon's clock.
extension World {
    /// The phone scans the URI: its credential is added, or replaces the one for the same account.
    public func scanOath(phone id: String, uri: String) throws(EmulatorError) -> OathCredential {
        guard var phone = phones.phone(id: id) else { throw EmulatorError(param: "phone", reason: "no phone \(id)") }
        let credential: OathCredential
        do {
            credential = try phone.scanOath(uri)
        } catch {
            throw EmulatorError(param: "uri", reason: Self.describe(error))
        }
        phones.update(id: id) { $0 = phone }
        return credential
    }

    /// The code the phone's app shows now for a credential (`issuer:account`, or the phone's
    /// only one): a TOTP code for the clock's time step; the HOTP code at the app's counter, which
    /// then moves on, as a press of the app's button does.
    public func oathCode(phone id: String, credential: String?) throws(EmulatorError) -> (OathCredential, String) {
        guard var phone = phones.phone(id: id) else { throw EmulatorError(param: "phone", reason: "no phone \(id)") }
        let index: Int
        if let credential {
            guard let found = phone.oath.firstIndex(where: { $0.id == credential }) else {
                throw EmulatorError(
                    param: "id",
                    reason: "the phone has no OATH credential \(credential) (it has \(phone.oath.map(\.id)))")
            }
            index = found
        } else {
            guard phone.oath.count == 1 else {
                throw EmulatorError(
                    param: "id",
                    reason: phone.oath.isEmpty
                        ? "the phone has no OATH credential (emulator.scanOath scans a registration's URI)"
                        : "the phone has \(phone.oath.count) OATH credentials: name one (\(phone.oath.map(\.id)))")
            }
            index = 0
        }
        let code = phone.oath[index].nextCode(at: clock.now)
        let used = phone.oath[index]
        phones.update(id: id) { $0 = phone }
        return (used, code)
    }

    static func describe(_ error: OathCredential.URIError) -> String {
        switch error {
        case .notOtpauth: "not an otpauth:// URI"
        case .unknownType(let type): "the type \"\(type)\" is neither totp nor hotp"
        case .missingAccountName: "the URI names no account (otpauth://totp/Issuer:account?…)"
        case .badEscape: "a percent-escape is not two hex digits of UTF-8"
        case .badParameter(let parameter): "the parameter \"\(parameter)\" has no value or comes twice"
        case .missingSecret: "the URI has no secret"
        case .badSecret(.invalidCharacter(let offset)): "the secret's character \(offset) is not base32"
        case .badSecret(.invalidPadding(let offset)): "the secret's padding at \(offset) is not base32's"
        case .badSecret(.invalidLength(let symbols)): "the secret ends in \(symbols) symbols, which base32 cannot"
        case .badSecret(.nonZeroTrailingBits): "the secret's last symbol has bits set past its last byte"
        case .issuerMismatch(let label, let parameter):
            "the issuer parameter \"\(parameter)\" is not the label's \"\(label)\""
        case .badValue(let parameter, let value): "\(parameter)=\(value) is not a value it can have"
        }
    }
}
