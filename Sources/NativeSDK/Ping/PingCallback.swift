import AuthBridgeCore
import IdentityServer

/// One callback of a Ping SDK `ContinueNode` as the native Journey SDK holds it: AM's callback
/// JSON as received (`raw`), the fields the SDK's callback class parses from AM's outputs, and the
/// values the app sets (`state`). Only the 18 core types `PingJourney` registers become callbacks
/// (ping-ios `Journey/Journey/Callbacks/*`, ping-android `journey/…/callback/*`), and the types
/// the extension packages register when the app links them (device profile, FIDO, Protect, IdP,
/// binding: `PingSDK.extensionCallbackTypes`).
public struct PingCallback: Equatable, Sendable {
    /// The core callback types (`CallbackRegistry` of both SDKs).
    public static let coreTypes: Set<CallbackType> = [
        .booleanAttributeInput, .numberAttributeInput, .stringAttributeInput, .choice, .confirmation, .consentMapping,
        .hiddenValue, .kbaCreate, .metadata, .name, .password, .pollingWait, .suspendedTextOutput, .termsAndConditions,
        .textInput, .textOutput, .validatedCreatePassword, .validatedCreateUsername,
    ]

    /// AM's `type` (a core type or a registered extension type).
    public let type: CallbackType
    /// AM's callback object, untouched.
    public let raw: JSONValue
    /// Position in AM's `callbacks` array: where the submitted values go.
    public let amIndex: Int
    /// The values the app can set, seeded as the SDK class seeds them: `name`, `password`, `text`,
    /// `value`, `selectedIndex` (absent on a fresh Confirmation), `accepted`, `selectedQuestion`,
    /// `selectedAnswer`, `allowUserDefinedQuestions`.
    public var state: JSONObject
    /// Values an extension module set on AM's inputs, by the input's position (a device-binding
    /// JWS, a FIDO outcome): written over the inputs when the node is submitted.
    public var inputs: [Int: JSONValue] = [:]
    /// Query parameters an extension module adds to the request that submits the node (ping-android
    /// `IdpCallback.intercept`: Apple's form_post parameters).
    public var requestParameters: [String: String] = [:]

    public init?(raw: JSONValue, amIndex: Int, extensions: Set<CallbackType> = []) {
        guard let wire = raw["type"]?.stringValue.flatMap(CallbackType.init(rawValue:)) else { return nil }
        let type = Self.specialized(wire, raw: raw, extensions: extensions)
        guard Self.coreTypes.contains(type) || extensions.contains(type) else { return nil }
        self.type = type
        self.raw = raw
        self.amIndex = amIndex
        state = Self.initialState(type: type, raw: raw)
    }

    /// The value of AM's output `name`, as sent.
    public func output(_ name: String) -> JSONValue? {
        raw["output"]?.arrayValue?.first { $0["name"]?.stringValue == name }?["value"]
    }

    public func outputString(_ name: String) -> String { output(name)?.stringValue ?? "" }

    /// AM sends some integers as strings (`messageType "0"`, `waitTime "8000"`); the SDKs read both.
    public func outputInt(_ name: String) -> Int64? {
        guard let value = output(name) else { return nil }
        return value.intValue ?? value.stringValue.flatMap { Int64($0) }
    }

    /// A TextOutput whose messageType is script (4) or unknown is not sent back
    /// (ping-ios `TextOutputCallback.payload`, ping-android `TextOutputCallback`).
    public var isLeftOutOfSubmit: Bool {
        guard type == .textOutput else { return false }
        return ![0, 1, 2].contains(outputInt("messageType") ?? -1)
    }

    private static func initialState(type: CallbackType, raw: JSONValue) -> JSONObject {
        let probe = PingCallback(type: type, raw: raw)
        switch type {
        case .name: return ["name": ""]
        case .password, .validatedCreatePassword: return ["password": ""]
        case .validatedCreateUsername: return ["username": ""]
        case .textInput: return ["text": .string(probe.outputString("defaultText"))]
        case .stringAttributeInput: return ["value": .string(probe.output("value")?.stringValue ?? "")]
        case .numberAttributeInput: return ["value": .double(probe.output("value")?.doubleValue ?? 0)]
        case .booleanAttributeInput: return ["value": .bool(probe.output("value")?.boolValue ?? false)]
        case .choice: return ["selectedIndex": .int(probe.outputInt("defaultChoice") ?? 0)]
        case .consentMapping, .termsAndConditions: return ["accepted": false]
        case .hiddenValue: return ["value": .string(probe.outputString("value"))]
        case .kbaCreate:
            return [
                "selectedQuestion": "", "selectedAnswer": "",
                "allowUserDefinedQuestions": .bool(probe.output("allowUserDefinedQuestions")?.boolValue ?? false),
            ]
        default: return [:]
        }
    }

    private init(type: CallbackType, raw: JSONValue) {
        self.type = type
        self.raw = raw
        amIndex = -1
        state = [:]
    }

    /// AM's callback with the app's values in its inputs, as the SDK class's `payload()` writes it.
    public var submitted: JSONValue {
        guard case .object(var callback) = raw, case .array(var inputs)? = callback["input"] else { return raw }
        func set(_ position: Int, _ value: JSONValue?) {
            guard let value, position < inputs.count, case .object(var input) = inputs[position] else { return }
            input["value"] = value
            inputs[position] = .object(input)
        }
        switch type {
        case .name: set(0, state["name"])
        case .password, .validatedCreatePassword: set(0, state["password"])
        case .validatedCreateUsername: set(0, state["username"])
        case .textInput: set(0, state["text"])
        case .stringAttributeInput, .booleanAttributeInput, .hiddenValue: set(0, state["value"])
        case .numberAttributeInput: set(0, state["value"].map(Self.wholeAsInt))
        case .choice, .confirmation: set(0, state["selectedIndex"])
        case .consentMapping, .termsAndConditions: set(0, state["accepted"])
        case .kbaCreate:
            set(0, state["selectedQuestion"])
            set(1, state["selectedAnswer"])
        default: break
        }
        for (position, value) in self.inputs.sorted(by: { $0.key < $1.key }) { set(position, value) }
        callback["input"] = .array(inputs)
        return .object(callback)
    }

    /// A whole double is sent as an integer, as JSONSerialization writes `42.0`.
    private static func wholeAsInt(_ value: JSONValue) -> JSONValue { value.intValue.map { .int($0) } ?? value }
}
