import AuthBridgeCore
import IdentityServer

/// One callback of a step, as AM sends it: its type, and its outputs and inputs in AM's wire
/// order (`ForgeRock/forgerock-ios-sdk` `FRAuth/FRAuth/Callbacks/`). Nodes make callbacks with the typed builders (`Callback.name(prompt:)`,
/// `Callback.choice(prompt:choices:defaultChoice:)`, …) with every value already decided — what
/// the user typed last, the policies that failed — so `StepRenderer` only numbers and writes them.
struct Callback: Equatable, Sendable {
    struct Field: Equatable, Sendable {
        var name: String
        var value: JSONValue
    }

    /// What an answer must be before any node sees it.
    enum AnswerRule: Equatable, Sendable {
        case any
        /// AM reads Choice and Confirmation answers as an option index; a string of digits is one
        /// (Flutter sends text). `count` bounds it when the callback lists its options.
        case optionIndex(count: Int?)
    }

    /// The type AM writes on the wire (WebAuthn callbacks travel as MetadataCallbacks).
    var type: CallbackType
    var output: [Field]
    /// Each input's name is `IDToken<N>` plus this field's name as a suffix (`""`,
    /// `validateOnly`, `question`, `token`, …); N is the callback's 1-based position in the step.
    var input: [Field]
    var answerRule: AnswerRule

    init(type: CallbackType, output: [Field], input: [Field] = [], answerRule: AnswerRule = .any) {
        self.type = type
        self.output = output
        self.input = input
        self.answerRule = answerRule
    }

    /// Whether an input with this suffix is one the callback has (answers to others are ignored).
    func hasInput(suffix: String) -> Bool { input.contains { $0.name == suffix } }
}

extension Callback.Field {
    init(_ name: String, _ value: JSONValue) {
        self.init(name: name, value: value)
    }
}
