import AuthBridgeCore
import IdentityServer
import NativeSDK

/// `next`'s `input` applied to the current node (`journey/ios/Callback/JourneyCallbackValueApplier.swift`,
/// `journey/android/…/callback/JourneyCallbackValueApplier.kt`): each `{type, value?, index?}` finds
/// the callback of that type at a per-type index (explicit, else the next one of that type), and
/// sets its value by the callback's class. Mutations are in place: those before a failure stay.
struct JourneyCallbackValueApplier {
    struct Mutation {
        let type: String
        let value: JSONValue?
        let index: Int?
    }

    let platform: Platform

    /// iOS rejects with `JOURNEY_NEXT_ERROR`, Android with `JOURNEY_CALLBACK_APPLY_ERROR`.
    private func argument(_ message: String) -> BridgeError {
        PingRejection.journey(platform == .ios ? .next : .callbackApply, .argument, message)
    }

    /// `input.callbacks` as mutations; anything but an array means none.
    func parse(_ input: JSONValue) throws(BridgeError) -> [Mutation] {
        guard case .array(let items)? = input["callbacks"] else { return [] }
        var mutations: [Mutation] = []
        for (position, item) in items.enumerated() {
            guard case .object(let map) = item else { throw argument("Invalid callback payload at index \(position)") }
            // iOS also refuses "" (`!type.isEmpty`); Android only a missing or non-string type.
            guard let type = map["type"]?.stringValue, !(platform == .ios && type.isEmpty) else {
                throw argument("Callback type is required at index \(position)")
            }
            let value = map["value"].flatMap { $0 == .null ? nil : $0 }
            let index: Int? = map["index"].flatMap { raw in
                if let number = raw.doubleValue { return Int(number.rounded(.towardZero)) }
                return raw.stringValue.flatMap { Int($0) }
            }
            mutations.append(Mutation(type: type, value: value, index: index))
        }
        return mutations
    }

    func apply(_ mutations: [Mutation], to node: inout PingContinueNode) throws(BridgeError) {
        var consumed: [String: Int] = [:]
        for mutation in mutations {
            let type = Self.normalized(mutation.type)
            let positions = node.callbacks.indices.filter { Self.normalized(node.callbacks[$0].type.rawValue) == type }
            guard !positions.isEmpty else { throw argument("No active callback found for type \(mutation.type)") }
            let index = mutation.index ?? consumed[type, default: 0]
            consumed[type] = index + 1
            guard index >= 0, index < positions.count else {
                throw argument("No active callback found for type \(mutation.type) at index \(index)")
            }
            try set(mutation, on: &node.callbacks[positions[index]])
        }
    }

    private func set(_ mutation: Mutation, on callback: inout PingCallback) throws(BridgeError) {
        let value = mutation.value
        let name = mutation.type
        switch callback.type {
        case .name: callback.state["name"] = .string(try asString(value, name))
        case .password, .validatedCreatePassword: callback.state["password"] = .string(try asString(value, name))
        case .validatedCreateUsername: callback.state["username"] = .string(try asString(value, name))
        case .textInput: callback.state["text"] = .string(try asString(value, name))
        case .stringAttributeInput, .hiddenValue: callback.state["value"] = .string(try asString(value, name))
        case .numberAttributeInput: callback.state["value"] = .double(try asDouble(value, name))
        case .booleanAttributeInput: callback.state["value"] = .bool(try asBoolean(value, name))
        case .termsAndConditions, .consentMapping: callback.state["accepted"] = .bool(try asBoolean(value, name))
        case .choice, .confirmation: callback.state["selectedIndex"] = .int(Int64(try asInt(value, name)))
        case .kbaCreate:
            let map = value?.objectValue ?? [:]
            if let question = map["selectedQuestion"] ?? map["question"] {
                callback.state["selectedQuestion"] = .string(try asString(question, "\(name).selectedQuestion"))
            }
            if let answer = map["selectedAnswer"] ?? map["answer"] {
                callback.state["selectedAnswer"] = .string(try asString(answer, "\(name).selectedAnswer"))
            } else if case .string(let answer)? = value {
                callback.state["selectedAnswer"] = .string(answer)
            }
            if let allow = map["allowUserDefinedQuestions"] {
                callback.state["allowUserDefinedQuestions"] = .bool(
                    try asBoolean(allow, "\(name).allowUserDefinedQuestions"))
            }
        case .metadata, .pollingWait, .textOutput, .suspendedTextOutput:
            throw PingRejection.journey(
                .unsupportedCallback, .argument, "Callback type \(name) is output-only and cannot be mutated")
        default:
            if let requirement = Self.integrationRequirements[Self.normalized(callback.type.rawValue)] {
                throw PingRejection.journey(
                    .missingIntegration, .state,
                    "Callback type \(name) requires additional native integration: \(requirement)")
            }
            throw PingRejection.journey(
                .unsupportedCallback, .argument, "Callback type \(name) is not supported for value mutation")
        }
    }

    /// The callbacks only a native package answers, and which (`integrationCallbackRequirements` in
    /// `journey/ios/Callback/JourneyCallbackValueApplier.swift` and its Android twin): JS cannot set
    /// them through `next`; the package's `…ForJourney` method does (PingOne Protect's have none).
    static let integrationRequirements: [String: String] = [
        "DeviceProfileCallback": "@ping-identity/rn-device-profile",
        "FidoRegistrationCallback": "@ping-identity/rn-fido",
        "FidoAuthenticationCallback": "@ping-identity/rn-fido",
        "PingOneProtectInitializeCallback": "PingOne Protect integration",
        "PingOneProtectEvaluationCallback": "PingOne Protect integration",
        "SelectIdpCallback": "@ping-identity/rn-external-idp",
        "IdpCallback": "@ping-identity/rn-external-idp",
        "ReCaptchaCallback": "ReCaptcha integration",
        "ReCaptchaEnterpriseCallback": "ReCaptcha Enterprise integration",
        "DeviceBindingCallback": "@ping-identity/rn-binding",
        "DeviceSigningVerifierCallback": "@ping-identity/rn-binding",
    ]

    /// The SDK's class names for AM's aliases (`normalizedCallbackType`).
    static func normalized(_ type: String) -> String {
        switch CallbackType(rawValue: type) {
        case .validatedCreatePassword?: return "ValidatedPasswordCallback"
        case .validatedCreateUsername?: return "ValidatedUsernameCallback"
        case .idP?: return "IdpCallback"
        case .selectIdP?: return "SelectIdpCallback"
        default: return type
        }
    }

    // MARK: conversions (`asString`, `asBoolean`, `asDouble`, `asInt`)

    /// A number becomes iOS `NSNumber.stringValue` ("42") or Android `Double.toString` ("42.0");
    /// a boolean iOS "1"/"0" (a bridged Bool is an NSNumber), Android "true"/"false".
    private func asString(_ value: JSONValue?, _ field: String) throws(BridgeError) -> String {
        switch value {
        case .string(let s)?: return s
        case .int(let i)?: return platform == .ios ? String(i) : "\(Double(i))"
        case .double(let d)?:
            if platform == .ios, let whole = JSONValue.double(d).intValue { return String(whole) }
            return "\(d)"
        case .bool(let b)?: return platform == .ios ? (b ? "1" : "0") : (b ? "true" : "false")
        default: throw argument("\(field) expects a string-compatible value")
        }
    }

    private func asBoolean(_ value: JSONValue?, _ field: String) throws(BridgeError) -> Bool {
        switch value {
        case .bool(let b)?: return b
        case .int(let i)?: return i != 0
        case .double(let d)?: return d.rounded(.towardZero) != 0
        case .string(let s)?:
            switch s.trimmingSpaces.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: break
            }
        default: break
        }
        throw argument("\(field) expects a boolean value")
    }

    private func asDouble(_ value: JSONValue?, _ field: String) throws(BridgeError) -> Double {
        if let number = value?.doubleValue { return number }
        if let text = value?.stringValue, let parsed = Double(text.trimmingSpaces) { return parsed }
        throw argument("\(field) expects a numeric value")
    }

    private func asInt(_ value: JSONValue?, _ field: String) throws(BridgeError) -> Int {
        if let number = value?.doubleValue, number.isFinite, abs(number) < 9.0e15 {
            return Int(number.rounded(.towardZero))
        }
        if let text = value?.stringValue, let parsed = Int(text.trimmingSpaces) { return parsed }
        throw argument("\(field) expects an integer value")
    }
}
