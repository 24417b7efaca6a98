import AuthBridgeCore
import EmulatedDevice
import NativeSDK

extension DeviceAnswers {
    /// DeviceBindingCallback and DeviceSigningVerifierCallback, when JS left their `jws` and
    /// `clientError` empty: the phone answers, as an app with the SDK's device-binding module
    /// calls `bind` or `sign` (forgerock-ios-sdk `FRDeviceBinding`). Binding uses the phone of
    /// the user the callback names; signing the phone holding a key of the named user (for a
    /// usernameless callback, the most recently bound key on any phone). A user with no key on
    /// any phone gets `ClientNotRegistered`, as from an app without one.
    func answerBinding(_ node: inout Node, at index: Int) {
        guard let type = node.callbackType(at: index), type == .deviceBinding || type == .deviceSigningVerifier,
            case .object(let callback) = node.callbacks[index],
            (callback["input"]?.arrayValue ?? []).allSatisfy({ ($0["value"]?.stringValue ?? "").isEmpty })
        else { return }
        let phoneId: String?
        if type == .deviceBinding {
            let username = callback["output"]?.arrayValue?.first { $0["name"] == "username" }?["value"]?.stringValue
            phoneId = username.map { phones.phone(of: $0).id }
        } else {
            let userId = callback["output"]?.arrayValue?.first { $0["name"] == "userId" }?["value"]?.stringValue ?? ""
            phoneId =
                phones.all
                .compactMap { phone in
                    phone.bindingKeys.last { userId.isEmpty || $0.userId == userId }.map { (phone.id, $0.createdAt) }
                }
                .max { $0.1 < $1.1 }?.0
        }
        let now = clock.now
        let answered: JSONObject?
        if let phoneId {
            answered =
                phones.update(id: phoneId) { phone in
                    try? phone.answer(bindingCallback: callback, now: now, random: random)
                } ?? nil
        } else {
            var keyless = Phone(id: "", owner: "", deviceToken: "")
            answered = try? keyless.answer(bindingCallback: callback, now: now, random: random)
        }
        if let answered { node.callbacks[index] = .object(answered) }
    }
}
