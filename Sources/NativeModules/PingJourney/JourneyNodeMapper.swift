import AuthBridgeCore
import NativeSDK

/// A node as the journey module resolves it to JS (`journey/ios/Mapper/JourneyNodeMapper.swift`
/// `mapNodePayload`, `journey/android/…/mapper/JourneyNodeMapper.kt`). Callbacks are mapped by
/// `JourneyCallbackMapper`.
enum JourneyNodeMapper {
    static func map(_ node: PingNode, platform: Platform) -> JSONValue {
        switch node {
        case .next(let next):
            let step = next.step
            // ContinueNode: AM's header/description/stage, "" when absent or not a string.
            var payload: JSONObject = [
                "type": "ContinueNode", "input": step,
                "header": .string(step["header"]?.stringValue ?? ""),
                "description": .string(step["description"]?.stringValue ?? ""),
                "stage": .string(step["stage"]?.stringValue ?? ""),
            ]
            payload["submitButtonText"] = .string(localized(step["stage"]?.stringValue, key: "submitButtonText"))
            payload["pageFooter"] = .string(localized(step["stage"]?.stringValue, key: "pageFooter"))
            payload["callbacks"] = .array(next.callbacks.map { JourneyCallbackMapper.map($0, platform: platform) })
            return .object(payload)
        case .error(let status, let message, let input):
            // iOS adds the HTTP status; Android's ErrorNode has none.
            var payload: JSONObject = ["type": "ErrorNode", "message": .string(message)]
            if platform == .ios { payload["status"] = .int(Int64(status)) }
            payload["input"] = input
            return .object(payload)
        case .failure(let message):
            return ["type": "FailureNode", "message": .string(message), "cause": .string(message)]
        case .success(let input):
            return ["type": "SuccessNode", "input": input]
        }
    }

    /// `ContinueNode.submitButtonText`/`pageFooter`: AM's stage read as JSON
    /// (`{"submitButtonText":{"en-us":"Go"}}`), the text for the device's locale. The emulated
    /// device's locale is en-US; the pick falls back to `en`, else "".
    static func localized(_ stage: String?, key: String) -> String {
        guard let stage, let object = try? JSONParser.parse(stage), case .object(let texts)? = object[key] else {
            return ""
        }
        for locale in ["en-us", "en"] {
            if let member = texts.members.first(where: { $0.key.lowercased() == locale }),
                let text = member.value.stringValue
            {
                return text
            }
        }
        return ""
    }
}
