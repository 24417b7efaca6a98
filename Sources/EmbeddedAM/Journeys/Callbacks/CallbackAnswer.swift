import AuthBridgeCore

/// The client's answer to one callback of the step it was sent: its input values by suffix
/// (`""`, `validateOnly`, `question`, …), and on a page step the `_id` of the callback it
/// answers, by which the page gives it to the child that sent that callback.
struct CallbackAnswer: Equatable, Sendable {
    var inputs: [String: JSONValue] = [:]
    var id: Int? = nil

    /// The main input (`IDToken<N>`); nil when the client left it out.
    var value: JSONValue? { inputs[""] }
    var validateOnly: Bool { inputs["validateOnly"]?.boolValue ?? false }

    /// The answers to the step's callbacks in `payload`, found by input name, not by array
    /// position: clients leave callbacks out (iOS drops script TextOutputs from what it submits,
    /// forgerock-ios-sdk `FRAuth/FRAuth/Authentication/Node.swift`). Inputs a callback does not have are ignored.
    static func answers(to step: Step, in payload: JSONValue) -> [CallbackAnswer] {
        let callbacks = step.callbacks
        var inputs: [JSONObject] = []
        for callback in payload["callbacks"]?.arrayValue ?? [] {
            for case .object(let input) in callback["input"]?.arrayValue ?? [] { inputs.append(input) }
        }
        return callbacks.enumerated().map { position, callback in
            let token = StepRenderer.inputName(position: position)
            var answer = CallbackAnswer(id: step.ids?[position])
            for input in inputs {
                guard let name = input["name"]?.stringValue, name.hasPrefix(token) else { continue }
                let suffix = String(name.dropFirst(token.count))
                if callback.hasInput(suffix: suffix) { answer.inputs[suffix] = input["value"] ?? .null }
            }
            return answer
        }
    }

    /// Applies each callback's answer rule. An option index becomes an integer (AM reads a string
    /// of digits as one); the first answer that breaks its rule is AM's 400 text.
    static func checked(_ answers: [CallbackAnswer], for callbacks: [Callback]) -> Result<[CallbackAnswer], InvalidAnswer> {
        var answers = answers
        for (position, callback) in callbacks.enumerated() {
            guard case .optionIndex(let count) = callback.answerRule, let value = answers[position].value else { continue }
            guard let index = JourneyValues.optionIndex(value), index < count ?? Int.max else {
                return .failure(InvalidAnswer(
                    message: "Invalid value for \(callback.type.rawValue) \(StepRenderer.inputName(position: position)): expected the index of an option, got \(JSONWriter.compact(value))"))
            }
            answers[position].inputs[""] = .int(Int64(index))
        }
        return .success(answers)
    }

    struct InvalidAnswer: Error {
        var message: String
    }
}
