import AuthBridgeCore

/// Writes a step in AM's exact wire shape (AM's "Log in to AM over REST" page; forgerock-ios-sdk's captured steps in `FRTestHost/FRTestHost/SharedTestFiles/TestData/MockResponseData/AuthTree/`): `authId`, `callbacks`, then
/// `stage`, `header`, `description` when set. Input names are `IDToken<N>` plus the input's
/// suffix, N the 1-based position in the step; `_id` is the 0-based position.
enum StepRenderer {
    static func render(_ step: Step, authId: String) -> JSONValue {
        let callbacks = step.callbacks.enumerated().map { render($0.element, position: $0.offset, pageStep: step.isPage) }
        var body: JSONObject = ["authId": .string(authId), "callbacks": .array(callbacks)]
        if let stage = step.stage { body["stage"] = .string(stage) }
        if let header = step.header { body["header"] = .string(header) }
        if let description = step.description { body["description"] = .string(description) }
        return .object(body)
    }

    static func render(_ callback: Callback, position: Int, pageStep: Bool) -> JSONValue {
        let token = inputName(position: position)
        var json: JSONObject = [
            "type": .string(callback.type),
            "output": .array(callback.output.map { ["name": .string($0.name), "value": $0.value] }),
        ]
        if !callback.input.isEmpty {
            json["input"] = .array(callback.input.map { ["name": .string(token + $0.name), "value": $0.value] })
        }
        if writesId(pageStep: pageStep) { json["_id"] = .int(Int64(position)) }
        return .object(json)
    }

    /// The one place that decides `_id`: AM writes it only on Page-node steps (ForgeRock/am-external `PageNode.java`, the only maker of `IdentifiableCallback`);
    /// a step a node sends by itself (a choice, a one-time password, a polling wait) has none.
    static func writesId(pageStep: Bool) -> Bool { pageStep }

    static func inputName(position: Int) -> String { "IDToken\(position + 1)" }
}
