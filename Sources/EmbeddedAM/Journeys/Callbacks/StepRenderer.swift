import AuthBridgeCore

/// Writes a step in AM's exact wire shape (AM's "Log in to AM over REST" page; forgerock-ios-sdk's captured steps in `FRTestHost/FRTestHost/SharedTestFiles/TestData/MockResponseData/AuthTree/`): `authId`, `callbacks`, then
/// `stage`, `header`, `description` when set. Input names are `IDToken<N>` plus the input's
/// suffix, N the 1-based position in the step. `_id` is the id the page gave the callback
/// (`Step.ids`), which is not its position once a page has been shown again.
enum StepRenderer {
    static func render(_ step: Step, authId: String) -> JSONValue {
        let callbacks = step.callbacks.enumerated().map {
            render($0.element, position: $0.offset, id: step.ids?[$0.offset])
        }
        var body: JSONObject = ["authId": .string(authId), "callbacks": .array(callbacks)]
        if let stage = step.stage { body["stage"] = .string(stage) }
        if let header = step.header { body["header"] = .string(header) }
        if let description = step.description { body["description"] = .string(description) }
        return .object(body)
    }

    /// `id` is nil for a callback a node sent by itself: AM writes `_id` only on Page-node steps,
    /// because only the Page node wraps callbacks in an `IdentifiableCallback` (`PageNode.java`
    /// `addCallbacks` in ForgeRock/am-external, releases/8.0.2).
    static func render(_ callback: Callback, position: Int, id: Int?) -> JSONValue {
        let token = inputName(position: position)
        var json: JSONObject = [
            "type": .string(callback.type.rawValue),
            "output": .array(callback.output.map { ["name": .string($0.name), "value": $0.value] }),
        ]
        if !callback.input.isEmpty {
            json["input"] = .array(callback.input.map { ["name": .string(token + $0.name), "value": $0.value] })
        }
        if let id { json["_id"] = .int(Int64(id)) }
        return .object(json)
    }

    static func inputName(position: Int) -> String { "\(inputNamePrefix)\(position + 1)" }
    static let inputNamePrefix = "IDToken"
}
