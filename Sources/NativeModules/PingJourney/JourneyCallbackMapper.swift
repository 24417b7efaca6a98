import AuthBridgeCore
import IdentityServer
import NativeSDK

/// One callback as JS sees it (`JourneyNodeMapper.mapCallbackPayload` on iOS,
/// `journey/android/…/mapper/JourneyNodeMapper.kt` on Android): `type`, AM's JSON as `raw`, the
/// validated keys, `required`, then the keys of its class. Values are the native ones, so a fresh
/// Name/Password reads "" whatever AM's input holds.
enum JourneyCallbackMapper {
    private static let validated: Set<CallbackType> = [
        .validatedCreateUsername, .validatedCreatePassword, .stringAttributeInput, .numberAttributeInput,
        .booleanAttributeInput,
    ]

    static func map(_ callback: PingCallback, platform: Platform) -> JSONValue {
        var p: JSONObject = ["type": .string(callback.type.rawValue), "raw": callback.raw]
        let state = callback.state
        if validated.contains(callback.type) {
            p["validateOnly"] = false
            p["prompt"] = .string(callback.outputString("prompt"))
            p["policies"] = callback.output("policies").flatMap { $0.objectValue.map(JSONValue.object) } ?? .object([:])
            p["failedPolicies"] = .array(failedPolicies(callback, platform: platform))
        }
        switch callback.type {
        case .name:
            p["prompt"] = .string(callback.outputString("prompt"))
            p["value"] = state["name"]
        case .password:
            p["prompt"] = .string(callback.outputString("prompt"))
            p["value"] = ""
        case .textInput:
            p["prompt"] = .string(callback.outputString("prompt"))
            p["defaultText"] = .string(callback.outputString("defaultText"))
            p["value"] = state["text"]
        case .textOutput, .suspendedTextOutput:
            let message = callback.outputString("message")
            p["prompt"] = .string(message)
            p["message"] = .string(message)
            p["messageType"] = .string(PingEnumNames.messageType(callback.outputInt("messageType"), platform))
        case .stringAttributeInput, .numberAttributeInput, .booleanAttributeInput:
            p["required"] = .bool(callback.output("required")?.boolValue ?? false)
            p["name"] = .string(callback.outputString("name"))
            p["validateOnly"] = false
            p["value"] = number(state["value"] ?? .null)
        case .choice:
            p["prompt"] = .string(callback.outputString("prompt"))
            p["choices"] = callback.output("choices") ?? .array([])
            p["defaultChoice"] = .int(callback.outputInt("defaultChoice") ?? 0)
            p["selectedIndex"] = state["selectedIndex"]
        case .confirmation:
            p["prompt"] = .string(callback.outputString("prompt"))
            p["options"] = callback.output("options") ?? .array([])
            p["selectedIndex"] = state["selectedIndex"] ?? -1
            p["defaultOption"] = .string(PingEnumNames.defaultOption(callback.outputInt("defaultOption"), platform))
            p["optionType"] = .string(PingEnumNames.optionType(callback.outputInt("optionType"), platform))
            p["messageType"] = .string(PingEnumNames.messageType(callback.outputInt("messageType"), platform))
        case .consentMapping:
            p["required"] = .bool(callback.output("isRequired")?.boolValue ?? false)
            for key in ["name", "displayName", "icon", "accessLevel"] { p[key] = .string(callback.outputString(key)) }
            p["fields"] = callback.output("fields") ?? .array([])
            p["message"] = .string(callback.outputString("message"))
            p["accepted"] = state["accepted"]
        case .termsAndConditions:
            for key in ["version", "terms", "createDate"] { p[key] = .string(callback.outputString(key)) }
            p["accepted"] = state["accepted"]
        case .hiddenValue:
            p["id"] = .string(callback.outputString("id"))
            p["value"] = state["value"]
        case .kbaCreate:
            p["prompt"] = .string(callback.outputString("prompt"))
            p["predefinedQuestions"] = callback.output("predefinedQuestions") ?? .array([])
            for key in ["selectedQuestion", "selectedAnswer", "allowUserDefinedQuestions"] { p[key] = state[key] }
        case .pollingWait:
            p["waitTime"] = .int(callback.outputInt("waitTime") ?? 0)
            p["message"] = .string(callback.outputString("message"))
        case .metadata:
            p["value"] = callback.output("data") ?? .null
        case .validatedCreatePassword:
            p["value"] = ""
            p["echoOn"] = .bool(callback.output("echoOn")?.boolValue ?? false)
        case .validatedCreateUsername:
            p["value"] = state["username"]
        case .idP, .selectIdP:
            mapIdP(callback, into: &p)
        default:
            break
        }
        return .object(p)
    }

    /// AM sends each failed policy as a JSON string; the mappers send objects. iOS:
    /// `{policyRequirement, params?}`, dropping an entry without a requirement; Android:
    /// `{params, policyRequirement}` with `params` `{}` when absent.
    private static func failedPolicies(_ callback: PingCallback, platform: Platform) -> [JSONValue] {
        let entries = callback.output("failedPolicies")?.arrayValue ?? []
        return entries.compactMap { entry in
            let parsed = entry.stringValue.flatMap { try? JSONParser.parse($0) } ?? entry
            let requirement = parsed["policyRequirement"]?.stringValue
            switch platform {
            case .ios:
                guard let requirement else { return nil }
                var object: JSONObject = ["policyRequirement": .string(requirement)]
                if let params = parsed["params"], params != .null { object["params"] = params }
                return .object(object)
            case .android:
                return ["params": parsed["params"] ?? .object([:]), "policyRequirement": .string(requirement ?? "")]
            }
        }
    }

    /// A whole double as an integer: JS cannot tell `0` from `0.0`, and transcripts stay stable.
    private static func number(_ value: JSONValue) -> JSONValue {
        if case .double = value, let whole = value.intValue { return .int(whole) }
        return value
    }
}

/// The enum names each SDK prints for AM's integer codes. iOS: the Swift cases of ping-ios
/// `MessageType`/`OptionType` (`String(describing:)`; `defaultOption` goes through `OptionType`
/// too, as the pinned mapper prints it); Android: the Kotlin enum names, which follow
/// `javax.security.auth.callback.ConfirmationCallback`'s constants.
enum PingEnumNames {
    static func messageType(_ code: Int64?, _ platform: Platform) -> String {
        let names: [Int64: String] = [0: "information", 1: "warning", 2: "error", 4: "script"]
        let name = code.flatMap { names[$0] } ?? "unknown"
        return platform == .ios ? name : name.uppercased()
    }

    static func optionType(_ code: Int64?, _ platform: Platform) -> String {
        switch platform {
        case .ios: return [-1: "unspecified", 0: "yesNo", 1: "yesNoCancel", 2: "okCancel"][code ?? 99] ?? "unknown"
        case .android:
            return [-1: "UNSPECIFIED_OPTION", 0: "YES_NO_OPTION", 1: "YES_NO_CANCEL_OPTION", 2: "OK_CANCEL_OPTION"][
                code ?? 99] ?? "UNKNOWN"
        }
    }

    static func defaultOption(_ code: Int64?, _ platform: Platform) -> String {
        switch platform {
        case .ios: return optionType(code, .ios)
        case .android: return [0: "YES", 1: "NO", 2: "CANCEL", 3: "OK"][code ?? 99] ?? "UNKNOWN"
        }
    }
}
