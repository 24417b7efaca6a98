import AuthBridgeCore
import Testing

@testable import EmbeddedAM

/// Answers on a page of thousands of callbacks: each input is matched to its callback by its
/// name's number, so the work per input does not grow with the page (issue 30: `next` was
/// quadratic in a page's callbacks).
@Suite struct WidePageAnswers {
    private func page(_ count: Int) -> Step {
        Step(
            callbacks: (0..<count).map { Callback.textInput(prompt: "Field \($0)", defaultText: nil) },
            ids: Array(0..<count))
    }

    private func payload(_ count: Int) -> JSONValue {
        [
            "callbacks": .array(
                (0..<count).map { i in
                    [
                        "type": "TextInputCallback",
                        "input": [["name": .string("IDToken\(i + 1)"), "value": .string("v\(i)")]],
                    ]
                })
        ]
    }

    @Test func everyCallbackOfAWidePageGetsItsOwnAnswer() {
        var tests = 0
        let answers = CallbackAnswer.answers(to: page(4000), in: payload(4000), inputTests: &tests)
        // At most one test per digit of each input's number (a scan of every input for every
        // callback made 16 million for this page).
        let digits: Int = 9 + 90 * 2 + 900 * 3 + 3001 * 4
        #expect(tests == digits)
        #expect(answers.count == 4000)
        let mismatched = answers.indices.filter { answers[$0].value != .string("v\($0)") || answers[$0].id != $0 }
        #expect(mismatched.isEmpty)
    }

    /// The operation count: the candidate callbacks an input name is tested against are at most
    /// its number's digits (4 for a page of 4,000), never the page's size; the matching scanned
    /// every input for every callback, 16 million tests for 4,000.
    @Test func anInputIsTestedAgainstAtMostOneCallbackPerDigit() {
        let splits: [Int] = (1...4000).map { CallbackAnswer.inputNameSplits("IDToken\($0)", callbackCount: 4000).count }
        let total: Int = splits.reduce(0, +)
        let expected: Int = 9 + 90 * 2 + 900 * 3 + 3001 * 4
        #expect(total == expected)
        #expect(splits.max() == 4)
    }

    /// `IDToken12` is callback 12's main input, or callback 1's input named `2` (which no callback
    /// has); a number with a leading zero, or past the page, names no callback.
    @Test func aNameSplitsAtEachDigitThatNamesACallback() {
        func positions(_ name: String, _ count: Int) -> [Int] {
            CallbackAnswer.inputNameSplits(name, callbackCount: count).map(\.position)
        }
        func suffixes(_ name: String, _ count: Int) -> [String] {
            CallbackAnswer.inputNameSplits(name, callbackCount: count).map(\.suffix)
        }
        #expect(positions("IDToken12", 20) == [0, 11])
        #expect(suffixes("IDToken12", 20) == ["2", ""])
        #expect(positions("IDToken12", 5) == [0])
        #expect(suffixes("IDToken1question", 1) == ["question"])
        #expect(positions("IDToken01", 20).isEmpty)
        #expect(positions("IDToken", 20).isEmpty)
        #expect(positions("Token1", 20).isEmpty)
        #expect(positions("IDToken99999999999999999999999", 20) == [8])
    }

    /// The page numbers its callbacks in one pass, each id one past the last.
    @Test func aPageNumbersThousandsOfCallbacksInOrder() {
        var ids = PageCallbackIds()
        let given = (0..<4000).map { ids.add(child: $0 % 7) }
        #expect(given == Array(0..<4000))
        var shared: JSONObject = [:]
        ids.write(into: &shared)
        var again = PageCallbackIds(shared: shared)
        #expect(again.add(child: 0) == 4000)
    }
}
