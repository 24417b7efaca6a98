import AuthBridgeCore
import EmulatedDevice

/// What a test does with a phone's device-binding keys (`emulator.bindingKeys`,
/// `emulator.deleteBindingKeys`, `emulator.setBindingPrompts`, `emulator.answerBinding`).
extension World {
    /// The phone's binding keys (never their private halves: `BindingKey.summaryJSON`).
    public func bindingKeys(phone id: String) -> [BindingKey] { phones.phone(id: id)?.bindingKeys ?? [] }

    /// Deletes the key of this id, or every key when `key` is nil, as an app's `FRUserKeys.delete`
    /// does locally: the server keeps the device it bound. The phone's keys left.
    public func deleteBindingKeys(phone id: String, key: String?) throws(EmulatorError) -> [BindingKey] {
        let deleted = phones.update(id: id) { $0.deleteBindingKeys(id: key) } ?? 0
        if let key, deleted == 0 {
            throw EmulatorError(param: "key", reason: "phone \(id) has no binding key \(key)")
        }
        return bindingKeys(phone: id)
    }

    /// How the phone's next biometric or PIN prompts are answered, first first; what was queued
    /// before is replaced.
    public func setBindingPrompts(phone id: String, _ answers: [PromptAnswer]) {
        phones.update(id: id) { $0.promptAnswers = answers }
    }

    /// The phone's answer to a DeviceBindingCallback or DeviceSigningVerifierCallback as the
    /// server sent it: the callback with its inputs filled, on the daemon's clock.
    public func answerBinding(phone id: String, callback: JSONObject) throws(EmulatorError) -> JSONObject {
        let (clock, random) = (self.clock, self.random)
        let result = phones.update(id: id) { phone -> Result<JSONObject, Phone.CallbackError> in
            Result { () throws(Phone.CallbackError) in
                try phone.answer(bindingCallback: callback, now: clock.now, random: random)
            }
        }
        switch result {
        case .success(let filled)?: return filled
        case .failure(.notABindingCallback(let type))?:
            throw EmulatorError(
                param: "callback",
                reason:
                    "a DeviceBindingCallback or DeviceSigningVerifierCallback is needed, got \(type.isEmpty ? "no type" : type)"
            )
        case .failure(.missingOutput(let name))?:
            throw EmulatorError(param: "callback", reason: "the callback has no output \(name)")
        case nil: throw EmulatorError(param: "phone", reason: "no phone \(id)")
        }
    }
}
