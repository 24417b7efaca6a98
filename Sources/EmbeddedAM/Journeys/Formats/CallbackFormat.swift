import AuthBridgeCore
import IdentityServer

/// A page's callback entries in AuthBridge's journey JSON (docs/journeys.md), mapped to the typed
/// builders: every type of the iOS SDK core list can be configured. Each entry becomes one
/// `CallbackCollector`; `sharedState` names where its answer goes instead of the type's default.
enum CallbackFormat {
    typealias Parse = @Sendable (inout Settings) throws(SettingsError) -> CallbackCollector

    /// In the order the unsupported-type error lists them.
    static let formats: [(type: String, parse: Parse)] = [
        am(.name, name), am(.password, password), am(.textInput, textInput), am(.choice, choice),
        am(.confirmation, confirmation), am(.textOutput, textOutput),
        am(.suspendedTextOutput, suspendedTextOutput), am(.pollingWait, pollingWait),
        am(.hiddenValue, hiddenValue), am(.validatedCreateUsername, validatedUsername),
        am(.validatedCreatePassword, validatedPassword),
        am(.stringAttributeInput, { s throws(SettingsError) in try attribute(&s, .string) }),
        am(.numberAttributeInput, { s throws(SettingsError) in try attribute(&s, .number) }),
        am(.booleanAttributeInput, { s throws(SettingsError) in try attribute(&s, .boolean) }),
        am(.kbaCreate, kbaCreate), am(.termsAndConditions, termsAndConditions), am(.deviceProfile, deviceProfile),
        am(.metadata, metadata), am(.reCaptcha, reCaptcha), am(.selectIdP, selectIdP), am(.idP, idP),
        am(.appIntegrity, appIntegrity),
        ("WebAuthnRegistrationCallback", { s throws(SettingsError) in try webAuthn(&s, registration: true) }),
        ("WebAuthnAuthenticationCallback", { s throws(SettingsError) in try webAuthn(&s, registration: false) }),
    ]

    /// An entry for one of AM's callback types: the journey file names it as AM does.
    private static func am(_ type: CallbackType, _ parse: @escaping Parse) -> (type: String, parse: Parse) {
        (type.rawValue, parse)
    }

    static func collector(json: JSONValue) throws(SettingsError) -> CallbackCollector {
        var s = try Settings(json, what: "a callback")
        guard let typeName = try s.string("type") else {
            throw SettingsError(reason: "\"type\" must name a callback type")
        }
        guard let format = formats.first(where: { $0.type == typeName }) else {
            throw SettingsError(
                reason:
                    "unsupported callback type \"\(typeName)\" (supported: \(formats.map(\.type).joined(separator: ", ")))"
            )
        }
        var collector = try format.parse(&s)
        // `sharedState` names where the entry's first callback's answer goes. A WebAuthn entry is
        // answered in its second callback (the hidden `webAuthnOutcome`), which keeps its id as
        // its path; the setting is accepted there and, as always, changes nothing.
        if let path = try s.string("sharedState") {
            try Settings.checkPath(path, key: "sharedState", separator: ".")
            if collector.answerIndex == 0 { collector.target = .shared(path) }
        }
        try s.finish()
        return collector
    }

    // MARK: input and output

    private static func name(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let prompt = try s.string("prompt", default: "User Name")
        return CallbackCollector(target: .shared("username")) { typed, _ in [.name(prompt: prompt, value: typed)] }
    }

    private static func password(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let prompt = try s.string("prompt", default: "Password")
        return CallbackCollector(target: .transient("password"), echoes: false) { _, _ in [.password(prompt: prompt)] }
    }

    private static func textInput(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let prompt = try s.requiredString("prompt")
        let defaultText = try s.string("defaultText")
        return CallbackCollector(target: nil) { typed, _ in
            [.textInput(prompt: prompt, defaultText: defaultText, value: typed)]
        }
    }

    private static func choice(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let prompt = try s.requiredString("prompt")
        let choices = try s.strings("choices", nonEmpty: true) ?? []
        if choices.isEmpty { throw SettingsError(reason: "\"choices\" is required (a non-empty array of strings)") }
        let defaultChoice = try s.int("defaultChoice", default: 0, in: 0...(choices.count - 1))
        return CallbackCollector(target: nil) { typed, _ in
            [.choice(prompt: prompt, choices: choices, defaultChoice: defaultChoice, value: typed)]
        }
    }

    private static func confirmation(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let prompt = try s.string("prompt", default: "")
        let messageType = try s.int("messageType", default: 0, in: 0...2)
        let options = try s.strings("options", nonEmpty: true) ?? []
        if options.isEmpty { throw SettingsError(reason: "\"options\" is required (a non-empty array of strings)") }
        let optionType = try s.int("optionType", default: -1, in: -1...2)
        let defaultOption = try s.int("defaultOption", default: 0, in: 0...(options.count - 1))
        // AM pre-fills the input with 0, whatever `defaultOption` says (OpenAM's `RestAuthConfirmationCallbackHandler`); an
        // unanswered confirmation keeps it.
        let preset = try s.int("value", default: 0, in: 0...100)
        return CallbackCollector(target: nil) { typed, _ in
            [
                .confirmation(
                    prompt: prompt, messageType: messageType, options: options, optionType: optionType,
                    defaultOption: defaultOption,
                    preset: preset, value: typed)
            ]
        }
    }

    private static func textOutput(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let message = try s.requiredString("message")
        let messageType = try Self.messageType(&s, allowed: ["0", "1", "2", "4"])
        return CallbackCollector(target: nil) { _, _ in [.textOutput(message: message, messageType: messageType)] }
    }

    private static func suspendedTextOutput(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let message = try s.requiredString("message")
        let messageType = try Self.messageType(&s, allowed: ["0"])
        return CallbackCollector(target: nil) { _, _ in
            [.suspendedTextOutput(message: message, messageType: messageType)]
        }
    }

    private static func pollingWait(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let waitTime = try s.int("waitTime", default: 5000, in: 0...3_600_000)
        let message = try s.requiredString("message")
        return CallbackCollector(target: nil) { _, _ in [.pollingWait(waitTime: waitTime, message: message)] }
    }

    private static func hiddenValue(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let id = try s.requiredString("id")
        let value = try s.string("value", default: "")
        return CallbackCollector(target: .shared(id)) { typed, _ in [.hiddenValue(id: id, value: value, typed: typed)] }
    }

    private static func kbaCreate(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let prompt = try s.string("prompt", default: "Select a security question")
        let questions = try s.strings("predefinedQuestions", nonEmpty: true) ?? []
        if questions.isEmpty {
            throw SettingsError(
                reason: "\"predefinedQuestions\" is required (the iOS SDK rejects a KBA callback without them)")
        }
        let allowUserDefined = try s.bool("allowUserDefinedQuestions", default: true)
        return CallbackCollector(target: .shared("objectAttributes.kbaInfo"), storage: .kbaEntry, echoes: false) {
            _, _ in
            [.kbaCreate(prompt: prompt, predefinedQuestions: questions, allowUserDefinedQuestions: allowUserDefined)]
        }
    }

    private static func termsAndConditions(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let version = try s.string("version", default: "0.0")
        let terms = try s.string("terms", default: "Terms and conditions: use this account only as intended.")
        let createDate = try s.string("createDate", default: "2019-10-28T04:20:11.320Z")
        return CallbackCollector(target: .shared("termsAccepted")) { typed, _ in
            [.termsAndConditions(version: version, terms: terms, createDate: createDate, value: typed)]
        }
    }

    private static func deviceProfile(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let metadata = try s.bool("metadata", default: true)
        let location = try s.bool("location", default: true)
        let message = try s.string("message", default: "Collecting profile ...")
        return CallbackCollector(target: .shared("deviceProfile"), echoes: false) { _, _ in
            [.deviceProfile(metadata: metadata, location: location, message: message)]
        }
    }

    private static func metadata(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        guard let data = try s.object("data") else { throw SettingsError(reason: "\"data\" is required (an object)") }
        return CallbackCollector(target: nil) { _, _ in [.metadata(data: data)] }
    }

    /// AM sends the TextOutput message type as a string; a journey file may write 0 or "0".
    private static func messageType(_ s: inout Settings, allowed: [String]) throws(SettingsError) -> String {
        guard let value = s.raw("messageType") else { return "0" }
        let text = value.stringValue ?? value.intValue.map { String($0) } ?? ""
        guard allowed.contains(text) else {
            throw SettingsError(
                reason:
                    "\"messageType\" must be one of \(allowed.joined(separator: ", ")) (0 information, 1 warning, 2 error, 4 script)"
            )
        }
        return text
    }
}
