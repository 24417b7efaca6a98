import AuthBridgeCore
import Testing

@testable import Host

/// The trace hides a callback's inputs by its type: shown only for types known to carry no
/// secret, so a type AuthBridge does not know keeps its inputs hidden.
@Suite struct CallbackRedaction {
    func input(_ type: String) -> JSONValue? {
        let callback: JSONValue = [
            "type": .string(type), "output": [], "input": [["name": "IDToken1", "value": "typed"]],
        ]
        return Redaction.value(callback)["input"]?.arrayValue?.first?["value"]
    }

    @Test func inputsShowOnlyForTypesKnownToCarryNoSecret() {
        #expect(input("NameCallback") == "typed")
        #expect(input("ChoiceCallback") == "typed")
        #expect(input("PasswordCallback") == .string(Redaction.marker))
        #expect(input("FutureCallback") == .string(Redaction.marker))
    }

    @Test func aHiddenValueHidesItsOutputs() {
        let callback: JSONValue = [
            "type": "HiddenValueCallback", "output": [["name": "value", "value": "secret"]], "input": [],
        ]
        #expect(Redaction.value(callback)["output"]?.arrayValue?.first?["value"] == .string(Redaction.marker))
    }
}
