import AuthBridgeCore
import NativeSDK

/// The step string each platform's bridge builds from a node (iOS `FRNode.resolve()`, Android `Gson().toJson(FRNode(node))`; docs/flavors.md).
enum StepJSON {
    /// JSONSerialization writes `/` as `\/`; Apple strings carry that byte for byte.
    static let apple = JSONWriter(options: [.escapeSlashes])
    static let applePretty = JSONWriter(options: [.escapeSlashes, .prettyPrinted])
    /// Gson's defaults: compact, `< > & = '` escaped as `\u003c`…, nulls left out.
    static let gson = JSONWriter(options: [.escapeHTML])

    /// iOS `FRNode.resolve()`: `stage`, `header`, `description` absent when unset.
    static func ios(_ node: Node) -> String {
        var step: JSONObject = ["authId": .string(node.authId), "authServiceId": .string(node.authServiceId)]
        if let stage = node.stage { step["stage"] = .string(stage) }
        if let header = node.header { step["header"] = .string(header) }
        if let description = node.description { step["description"] = .string(description) }
        step["callbacks"] = .array(node.callbacks)
        return apple.string(.object(step))
    }

    /// `Gson().toJson(FRNode(node))`: the sample's FRNode fields in declaration order;
    /// `authServiceId` always "". The Kotlin bridge writes the three texts always (empty when
    /// unset), the Java one leaves them out when null.
    static func android(_ node: Node, variant: AndroidVariant) -> String {
        var step: JSONObject = ["frCallbacks": .array(node.callbacks.map(frCallback)), "authId": .string(node.authId)]
        step["authServiceId"] = ""
        for (key, value) in [("stage", node.stage), ("pageHeader", node.header), ("pageDescription", node.description)]
        {
            if let value { step[key] = .string(value) } else if variant == .kotlin { step[key] = "" }
        }
        step["callbacks"] = .array(node.callbacks)
        return gson.string(.object(step))
    }

    /// The sample's FRCallback: `type`, `prompt`, `choices`, `predefinedQuestions`, `inputNames`
    /// (never filled) and `response`, the raw callback as a Gson string.
    private static func frCallback(_ callback: JSONValue) -> JSONValue {
        var object: JSONObject = ["type": callback["type"] ?? .null]
        let outputs = callback["output"]?.arrayValue ?? []
        func output(_ name: String) -> JSONValue? { outputs.first { $0["name"]?.stringValue == name }?["value"] }
        if let prompt = output("prompt") { object["prompt"] = prompt }
        if let choices = output("choices") { object["choices"] = choices }
        if let questions = output("predefinedQuestions") { object["predefinedQuestions"] = questions }
        object["inputNames"] = []
        object["response"] = .string(gson.string(callback))
        return .object(object)
    }
}
