import AuthBridgeCore

/// The phone's app reading AM's DeviceBindingCallback and DeviceSigningVerifierCallback as the
/// SDKs do (by output name: forgerock-android-sdk forgerock-auth `callback/DeviceBindingCallback.kt`,
/// `callback/DeviceSigningVerifierCallback.kt`) and writing its answer into the callback's
/// inputs (`…jws`, `…deviceName`, `…deviceId`, `…clientError`). One place for every door onto the
/// phone: `emulator.answerBinding` and the sample bridges' complete mode.
extension Phone {
    public enum CallbackError: Error, Equatable, Sendable {
        /// Not a DeviceBindingCallback or DeviceSigningVerifierCallback.
        case notABindingCallback(String)
        /// An output the SDK needs is missing or of the wrong type.
        case missingOutput(String)
    }

    /// The callback with its inputs filled as the app fills them after the prompt.
    public mutating func answer(
        bindingCallback callback: JSONObject, now: Double, random: RandomSource
    ) throws(CallbackError) -> JSONObject {
        let type = callback["type"]?.stringValue ?? ""
        var outputs: [String: JSONValue] = [:]
        for case .object(let output) in callback["output"]?.arrayValue ?? [] {
            if let name = output["name"]?.stringValue { outputs[name] = output["value"] ?? .null }
        }
        func text(_ name: String) throws(CallbackError) -> String {
            guard let value = outputs[name]?.stringValue else { throw .missingOutput(name) }
            return value
        }
        // The SDKs' default when AM sends no timeout; a hostile one is held to a year.
        let timeout = Int(min(max(outputs["timeout"]?.intValue ?? 60, 0), 31_536_000))
        let answer: BindingAnswer
        switch type {
        case "DeviceBindingCallback":
            answer = bind(
                BindingRequest(
                    userId: try text("userId"), username: try text("username"),
                    authenticationType: try text("authenticationType"), challenge: try text("challenge"),
                    timeout: timeout), now: now, random: random)
        case "DeviceSigningVerifierCallback":
            answer = sign(
                userId: outputs["userId"]?.stringValue ?? "", challenge: try text("challenge"), timeout: timeout,
                now: now)
        default:
            throw .notABindingCallback(type)
        }
        var values: [String: String]
        switch answer {
        case .signed(let jws, let deviceName, let deviceId):
            values = ["jws": jws, "deviceName": deviceName, "deviceId": deviceId, "clientError": ""]
        case .clientError(let error):
            values = ["jws": "", "deviceName": "", "deviceId": "", "clientError": error]
        }
        var filled = callback
        filled["input"] = .array(
            (callback["input"]?.arrayValue ?? []).map { input in
                guard case .object(var field) = input, let name = field["name"]?.stringValue,
                    let suffix = values.keys.first(where: { name.hasSuffix($0) }), let value = values[suffix]
                else { return input }
                field["value"] = .string(value)
                return .object(field)
            })
        return filled
    }
}
