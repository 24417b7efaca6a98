import AuthBridgeCore
import IdentityServer
import NativeSDK

/// How each platform's `next` copies the values of the payload JS sent onto the node the SDK
/// holds (each sample's `FRAuthSampleBridge` `next`, docs/flavors.md). The echoed authId and texts are ignored: the
/// journey state is native.
enum CallbackValues {
    /// FRAuth's `SingleValueCallback` family: `setValue(input[0].value)`.
    static let singleValueTypes: Set<CallbackType> = [
        .name, .password, .textInput, .choice, .hiddenValue, .selectIdP, .termsAndConditions, .validatedCreateUsername,
        .validatedCreatePassword, .stringAttributeInput, .booleanAttributeInput, .numberAttributeInput, .deviceProfile,
    ]

    enum IOSVariant { case reactNative, flutter }

    /// Which sample bridge's rules a flavor's `next` follows.
    enum SampleRules {
        case ios(IOSVariant)
        case android(AndroidVariant)

        var platform: Platform {
            switch self {
            case .ios: return .ios
            case .android: return .android
            }
        }
    }

    /// `next`'s copy of JS values onto the node: the flavor's sample rules, or `--callbacks
    /// complete`. A device profile, when one is collected, describes the flavor's platform.
    static func apply(
        _ payload: StepPayload, to node: inout Node, handling: CallbackHandling, sample: SampleRules, sdk: AuthSDK,
        device: DeviceAnswers? = nil
    ) throws(BridgeError) {
        let collector = DeviceProfileCollector(platform: sample.platform) { [sdk] in sdk.deviceIdentifier }
        switch (handling, sample) {
        case (.complete, _): applyComplete(payload, to: &node, collector: collector, device: device)
        case (.sample, .ios(let variant)): try applyIOS(payload, to: &node, variant: variant, collector: collector)
        case (.sample, .android(let variant)):
            try applyAndroid(payload, to: &node, variant: variant, collector: collector)
        }
    }

    /// iOS: by position. KBA question and answer go by input name; other single-value callbacks
    /// take `input[0].value` as the iOS `FlexibleType` decodes it. The RN bridge (RN-E) collects a
    /// DeviceProfileCallback natively and submits at once, leaving later callbacks as they are,
    /// and rejects any other type; Flutter's collects only when the payload has no callbacks and
    /// ignores the types it does not handle.
    static func applyIOS(
        _ payload: StepPayload, to node: inout Node, variant: IOSVariant, collector: DeviceProfileCollector
    ) throws(BridgeError) {
        if variant == .flutter, payload.callbacks.isEmpty {
            for index in node.callbacks.indices where node.callbackType(at: index) == .deviceProfile {
                setProfile(on: &node, at: index, collector)
            }
            return
        }
        for index in node.callbacks.indices where index < payload.callbacks.count {
            let type = node.callbackType(at: index)
            let sent = payload.callbacks[index]
            if type == .kbaCreate {
                setKBA(sent, on: &node, at: index)
            } else if type == .deviceProfile, variant == .reactNative {
                setProfile(on: &node, at: index, collector)
                return
            } else if let type, singleValueTypes.contains(type) {
                guard let value = sent.inputs.first?.value, value != .null else { continue }
                node.setInput(callback: index, inputIndex: 0, to: flexible(value))
            } else if variant == .reactNative {
                // The original rejects, then submits anyway and settles the promise a second time;
                // AuthBridge rejects once and keeps the step.
                let name = node.callbacks[index]["type"]?.stringValue ?? ""
                throw .reject("Error", "Received an unsupported callback", detail: "callback \(index) is a \(name)")
            }
        }
    }

    /// `--callbacks complete`: a bridge that handles every callback of the iOS core list. Each
    /// input takes the payload's value at the same position (FlexibleType-decoded); a
    /// DeviceProfileCallback left empty by JS is collected natively; the app's device modules
    /// answer what needs the phone (`DeviceAnswers`).
    static func applyComplete(
        _ payload: StepPayload, to node: inout Node, collector: DeviceProfileCollector, device: DeviceAnswers? = nil
    ) {
        for index in node.callbacks.indices where index < payload.callbacks.count {
            for (position, input) in payload.callbacks[index].inputs.enumerated() {
                guard let value = input.value else { continue }
                node.setInput(callback: index, inputIndex: position, to: flexible(value))
            }
            if node.callbackType(at: index) == .deviceProfile,
                node.callbacks[index]["input"]?.arrayValue?.first?["value"] == ""
            {
                setProfile(on: &node, at: index, collector)
            }
        }
        device?.answer(&node)
        device?.answerIdP(&node, platform: collector.platform)
    }

    /// `DeviceProfileCallback.execute`: the collector's profile, with the parts AM asked for.
    private static func setProfile(on node: inout Node, at index: Int, _ collector: DeviceProfileCollector) {
        let outputs = node.callbacks[index]["output"]?.arrayValue ?? []
        func asked(_ name: String) -> Bool {
            outputs.first { $0["name"]?.stringValue == name }?["value"]?.boolValue ?? false
        }
        node.setInput(
            callback: index, inputIndex: 0,
            to: .string(collector.profile(metadata: asked("metadata"), location: asked("location"))))
    }

    /// Android: payload callback `j` acts only on node callback `i == j` of the same type, using
    /// `input[0]`; Name, Password and the validated username/password go to the *first* callback
    /// of that class in the node, as the bridges' `getCallback(Class)` does. Types the bridge
    /// does not handle are ignored. Gson reads every number as a Double.
    static func applyAndroid(
        _ payload: StepPayload, to node: inout Node, variant: AndroidVariant, collector: DeviceProfileCollector
    ) throws(BridgeError) {
        // `getCallback(Class)`'s answer for each type, found once: a search per callback would
        // make a page of n callbacks cost O(n²).
        var firstOfType: [CallbackType: Int] = [:]
        for index in node.callbacks.indices.reversed() {
            if let type = node.callbackType(at: index) { firstOfType[type] = index }
        }
        for index in node.callbacks.indices where index < payload.callbacks.count {
            let sent = payload.callbacks[index]
            guard let type = sent.type.flatMap(CallbackType.init(rawValue:)), type == node.callbackType(at: index)
            else { continue }
            // The Java bridge reads input[0] without a check and crashes on a callback without
            // inputs; the Kotlin one skips it. AuthBridge skips it on both.
            guard let value = sent.inputs.first?.value else { continue }
            switch type {
            case .name, .password, .validatedCreateUsername, .validatedCreatePassword:
                guard case .string = value, let first = firstOfType[type] else { continue }
                node.setInput(callback: first, inputIndex: 0, to: value)
            case .choice:
                // Kotlin `value as? Int` on Gson's Double is null: never set. Java's `(Integer)`
                // cast throws; AuthBridge rejects instead of crashing.
                if variant == .java {
                    throw .reject(
                        "error", "java.lang.ClassCastException: ChoiceCallback value is not an Integer",
                        detail: "the Java bridge casts the choice to Integer, which Gson's Double never is")
                }
            case .kbaCreate:
                // Kotlin uses the callback at this position; Java `getCallback(KbaCreateCallback)`,
                // the first KBA, so a second KBA's answers land on the first.
                let target = variant == .kotlin ? index : firstOfType[type] ?? index
                setKBA(sent, on: &node, at: target)
            case .stringAttributeInput:
                if case .string = value { node.setInput(callback: index, inputIndex: 0, to: value) }
            case .booleanAttributeInput, .termsAndConditions:
                if case .bool = value { node.setInput(callback: index, inputIndex: 0, to: value) }
            case .deviceProfile:
                // Both bridges run `execute` without waiting for it (Kotlin RN-E, Java FL-A/FL-B);
                // AuthBridge lets it finish first.
                setProfile(on: &node, at: index, collector)
            default:
                continue
            }
        }
    }

    private static func setKBA(_ sent: StepPayload.Callback, on node: inout Node, at index: Int) {
        for input in sent.inputs {
            guard case .string(let value)? = input.value else { continue }
            let part = input.name.lowercased().contains("question") ? "question" : "answer"
            let target = node.callbacks[index]["input"]?.arrayValue?
                .first { $0["name"]?.stringValue?.lowercased().hasSuffix(part) == true }?["name"]?.stringValue
            if let target { node.setInput(callback: index, named: target, to: .string(value)) }
        }
    }

    /// The iOS `FlexibleType` decode: string, else integer, else double, else bool.
    static func flexible(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string, .int, .bool: return value
        case .double(let d): return value.intValue.map { .int($0) } ?? .double(d)
        default: return ""
        }
    }
}
