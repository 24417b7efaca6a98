import AuthBridgeCore

/// The phone's app reading AM's DeviceBindingCallback and DeviceSigningVerifierCallback as the
/// SDKs do (by output name: forgerock-android-sdk forgerock-auth `callback/DeviceBindingCallback.kt`,
/// ping-android `mfa/binding/…/journey/DeviceBindingCallback.kt`, ping-ios
/// `Binding/Binding/Callback/DeviceBindingCallback.swift`) and writing its answer into the
/// callback's inputs (`…jws`, `…deviceName`, `…deviceId`, `…clientError`, by name suffix as the
/// SDKs' `updateInputValue` does). One place for every door onto the phone: `emulator.answerBinding`,
/// the sample bridges' complete mode and `RNPingBinding`.
extension Phone {
    public enum CallbackError: Error, Equatable, Sendable {
        /// Not a DeviceBindingCallback or DeviceSigningVerifierCallback.
        case notABindingCallback(String)
        /// An output the SDK needs is missing or of the wrong type.
        case missingOutput(String)
    }

    /// The callback with its inputs filled as the old SDK's app fills them after the prompt.
    public mutating func answer(
        bindingCallback callback: JSONObject, now: Double, random: RandomSource
    ) throws(CallbackError) -> JSONObject {
        var ceremony = BindingCeremony(
            try BindingCeremony.Request(callback: callback), options: .init(style: .forgeRockIOS))
        let step = ceremony.start(on: &self, now: now, random: random)
        guard case .finished(let result) = step else { return callback }
        var filled = callback
        var inputs = callback["input"]?.arrayValue ?? []
        for (position, value) in BindingCeremony.inputValues(result, callback: callback) {
            guard case .object(var field) = inputs[position] else { continue }
            field["value"] = .string(value)
            inputs[position] = .object(field)
        }
        filled["input"] = .array(inputs)
        return filled
    }
}

extension BindingCeremony.Request {
    /// What AM's callback asks, read by output name.
    public init(callback: JSONObject) throws(Phone.CallbackError) {
        let type = callback["type"]?.stringValue ?? ""
        var outputs: [String: JSONValue] = [:]
        for case .object(let output) in callback["output"]?.arrayValue ?? [] {
            if let name = output["name"]?.stringValue { outputs[name] = output["value"] ?? .null }
        }
        func text(_ name: String) throws(Phone.CallbackError) -> String {
            guard let value = outputs[name]?.stringValue else { throw .missingOutput(name) }
            return value
        }
        // The SDKs' default when AM sends no timeout; a hostile one is held to a year.
        let timeout = Int(min(max(outputs["timeout"]?.intValue ?? 60, 0), 31_536_000))
        let prompt = BindingCeremony.PromptText(
            title: outputs["title"]?.stringValue ?? "", subtitle: outputs["subtitle"]?.stringValue ?? "",
            description: outputs["description"]?.stringValue ?? "")
        switch type {
        case "DeviceBindingCallback":
            var request = BindingRequest(
                userId: try text("userId"), username: try text("username"),
                authenticationType: try text("authenticationType"), challenge: try text("challenge"), timeout: timeout)
            (request.title, request.subtitle, request.description) = (prompt.title, prompt.subtitle, prompt.description)
            self = .bind(request, deviceName: nil)
        case "DeviceSigningVerifierCallback":
            self = .sign(
                userId: outputs["userId"]?.stringValue ?? "", challenge: try text("challenge"), timeout: timeout,
                prompt: prompt)
        default:
            throw .notABindingCallback(type)
        }
    }
}

extension BindingCeremony {
    /// The values a finished operation writes over the callback's inputs, by the input's
    /// position: the JWS, device name and id with an empty client error, or the client error
    /// with the rest empty. Inputs are found by their name's suffix.
    public static func inputValues(_ result: Result<Signed, Failure>, callback: JSONObject) -> [(Int, String)] {
        let values: [String: String]
        switch result {
        case .success(let signed):
            values = [
                "jws": signed.jws, "deviceName": signed.deviceName, "deviceId": signed.deviceId, "clientError": "",
            ]
        case .failure(let failure):
            values = ["jws": "", "deviceName": "", "deviceId": "", "clientError": failure.clientError]
        }
        return (callback["input"]?.arrayValue ?? []).enumerated().compactMap { position, input in
            guard let name = input["name"]?.stringValue, let suffix = values.keys.first(where: { name.hasSuffix($0) }),
                let value = values[suffix]
            else { return nil }
            return (position, value)
        }
    }
}
