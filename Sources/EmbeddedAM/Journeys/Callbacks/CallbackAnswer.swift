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
        var tests = 0
        return answers(to: step, in: payload, inputTests: &tests)
    }

    /// `answers(to:in:)`, counting the (callback, input) pairs it tests in `inputTests`: the
    /// operation count a test holds to a constant per input.
    static func answers(to step: Step, in payload: JSONValue, inputTests: inout Int) -> [CallbackAnswer] {
        let callbacks = step.callbacks
        var answers = callbacks.indices.map { CallbackAnswer(id: step.ids?[$0]) }
        // One pass over the inputs, in order (a later input of the same name wins): each name is
        // split at its digits, so a page of n callbacks costs O(n), not O(n²) prefix tests.
        for callback in payload["callbacks"]?.arrayValue ?? [] {
            for case .object(let input) in callback["input"]?.arrayValue ?? [] {
                guard let name = input["name"]?.stringValue else { continue }
                for (position, suffix) in inputNameSplits(name, callbackCount: callbacks.count) {
                    inputTests += 1
                    if callbacks[position].hasInput(suffix: suffix) {
                        answers[position].inputs[suffix] = input["value"] ?? .null
                    }
                }
            }
        }
        return answers
    }

    /// Every way `name` reads as `StepRenderer.inputName(position:)` of a callback on the step
    /// followed by a suffix: `IDToken12` is callback 12's main input or callback 1's input `2`.
    /// At most one split per digit of the number, so the cost does not grow with the step.
    static func inputNameSplits(_ name: String, callbackCount: Int) -> [(position: Int, suffix: String)] {
        let prefix = StepRenderer.inputNamePrefix
        guard name.hasPrefix(prefix) else { return [] }
        let rest = name.dropFirst(prefix.count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        // A number written with a leading zero is no callback's (`IDToken01` is not `IDToken1`).
        guard digits.first != "0" else { return [] }
        var splits: [(position: Int, suffix: String)] = []
        var number = 0
        for (length, digit) in digits.enumerated() {
            number = number * 10 + Int(digit.asciiValue! - 48)
            guard number <= callbackCount else { break }
            splits.append((number - 1, String(rest.dropFirst(length + 1))))
        }
        return splits
    }

    /// Applies each callback's answer rule. An option index becomes an integer (AM reads a string
    /// of digits as one); the first answer that breaks its rule is AM's 400 text.
    static func checked(
        _ answers: [CallbackAnswer], for callbacks: [Callback]
    ) -> Result<[CallbackAnswer], InvalidAnswer> {
        var answers = answers
        for (position, callback) in callbacks.enumerated() {
            guard case .optionIndex(let count) = callback.answerRule, let value = answers[position].value else {
                continue
            }
            guard let index = JourneyValues.optionIndex(value), index < count ?? Int.max else {
                return .failure(
                    InvalidAnswer(
                        message:
                            "Invalid value for \(callback.type.rawValue) \(StepRenderer.inputName(position: position)): expected the index of an option, got \(JSONWriter.compact(value))"
                    ))
            }
            answers[position].inputs[""] = .int(Int64(index))
        }
        return .success(answers)
    }

    struct InvalidAnswer: Error {
        var message: String
    }
}
