import AuthBridgeCore
import EmulatedDevice
import Host
import JSONRPC

/// `emulator.bindingKeys`, `emulator.deleteBindingKeys`, `emulator.setBindingPrompts`,
/// `emulator.answerBinding`: a phone's device-binding keys, how its next prompts are answered,
/// and its answer to a binding or signing callback. A phone is `{username}` (the user's first)
/// or `{phone}` (its id).
extension RPCFace {
    func registerBindingMethods() {
        register("emulator.bindingKeys") { [unowned self] call throws(JSONRPCError) in
            let (id, keys) = try onPhone(NamedParams(call)) { world, id in (id, world.bindingKeys(phone: id)) }
            return Self.keys(id, keys)
        }
        register("emulator.deleteBindingKeys") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let key = try params.optionalString("key")
            let (id, keys) = try onPhone(params) { world, id throws(EmulatorError) in
                (id, try world.deleteBindingKeys(phone: id, key: key))
            }
            return Self.keys(id, keys)
        }
        register("emulator.setBindingPrompts") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            var answers: [PromptAnswer] = []
            for text in try params.strings("answers") {
                guard let answer = PromptAnswer(rawValue: text) else {
                    throw .invalidParams(
                        "answers: \"\(text)\" is not a prompt answer (\(PromptAnswer.allCases.map(\.rawValue).joined(separator: ", ")))",
                        param: "answers")
                }
                answers.append(answer)
            }
            let id = try onPhone(params) { world, id in
                world.setBindingPrompts(phone: id, answers)
                return id
            }
            return ["phone": .string(id), "answers": .array(answers.map { .string($0.rawValue) })]
        }
        register("emulator.answerBinding") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let callback = try params.object("callback")
            let filled = try onPhone(params) { world, phone throws(EmulatorError) in
                try world.answerBinding(phone: phone, callback: callback)
            }
            return .object(filled)
        }
    }

    private static func keys(_ phone: String, _ keys: [BindingKey]) -> JSONValue {
        ["phone": .string(phone), "keys": .array(keys.map { .object($0.summaryJSON) })]
    }
}
