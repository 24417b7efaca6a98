import AuthBridgeCore
import EmulatedDevice
import IdentityServer
import NativeSDK

/// OATH: the registration step's `otpauth://` URI (the hidden value `mfaDeviceRegistration`)
/// is scanned into the phone of the user it names (`uid`, else the journey's user) and "Next"
/// is pressed; the verifier's code field, left empty by JS, gets the code the phone's app shows
/// now (its most recently scanned credential).
extension DeviceAnswers {
    func answerOath(_ node: inout Node) {
        for index in node.callbacks.indices {
            switch node.callbackType(at: index) {
            case .hiddenValue:
                guard Self.output(node, index, "id") == "mfaDeviceRegistration",
                    let uri = Self.output(node, index, "value")?.stringValue, uri.hasPrefix("otpauth://")
                else { continue }
                guard let user = Self.uriUser(uri) ?? username else { continue }
                var phone = phones.phone(of: user)
                do {
                    try phone.scanOath(uri)
                } catch {
                    logWarn("--callbacks complete: the phone could not read the registration URI (\(error))")
                    continue
                }
                phones.update(id: phone.id) { $0 = phone }
                for confirmation in node.callbacks.indices where node.callbackType(at: confirmation) == .confirmation {
                    node.setInput(callback: confirmation, inputIndex: 0, to: .int(0))
                }
            case .name:
                guard Self.output(node, index, "prompt") == "Enter verification code",
                    JourneyText.isEmpty(Self.inputValue(node, index)), let user = username,
                    let id = phones.phones(of: user).first?.id
                else { continue }
                let code: String? =
                    phones.update(id: id) { phone in
                        guard !phone.oath.isEmpty else { return nil }
                        return phone.oath[phone.oath.count - 1].nextCode(at: clock.now)
                    } ?? nil
                if let code { node.setInput(callback: index, inputIndex: 0, to: .string(code)) }
            default:
                continue
            }
        }
    }

    /// The username AM writes into the URI as `uid` (base64url).
    static func uriUser(_ uri: String) -> String? {
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("uid=") {
            guard let bytes = Base64URL.decode(String(pair.dropFirst(4))), !bytes.isEmpty else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
        return nil
    }
}

/// Whether an input is empty as a bridge sees it: absent, null or "".
enum JourneyText {
    static func isEmpty(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: true
        case .string(let text)?: text.isEmpty
        default: false
        }
    }
}
