import AuthBridgeCore
import EmulatedDevice
import Host
import JSONRPC

/// `emulator.scanPush`, `emulator.pushNotifications`, `emulator.approvePush`,
/// `emulator.denyPush`, `emulator.expirePush`: a test's hands on a phone's push authenticator;
/// `emulator.lastPushNotification`: what the push sender last handed SNS, for a test that plays
/// the authenticator app itself.
/// A phone is named by `username` (the user's first phone) or `phone` (its id).
extension RPCFace {
    func registerPushMethods() {
        register("emulator.lastPushNotification") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return try unit { world in world.embedded.push.lastDelivery?.json ?? .null }
        }
        register("emulator.scanPush") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let uri = try params.string("uri")
            let mechanism = try onPhone(params) { world, phone throws(EmulatorError) in
                try world.scanPush(phone: phone, uri: uri)
            }
            return .object(mechanism.summaryJSON)
        }
        register("emulator.pushNotifications") { [unowned self] call throws(JSONRPCError) in
            let found = try onPhone(NamedParams(call)) { world, id in (id, world.pushNotifications(phone: id)) }
            return [
                "phone": .string(found.0), "notifications": .array(found.1.map { .object($0.summaryJSON) }),
            ]
        }
        for (method, approve) in [("emulator.approvePush", true), ("emulator.denyPush", false)] {
            register(method) { [unowned self] call throws(JSONRPCError) in
                let params = try NamedParams(call)
                let messageId = try params.optionalString("messageId")
                let number = approve ? try params.optionalInt("number") : nil
                guard number.map({ (0...999).contains($0) }) ?? true else {
                    throw .invalidParams("number must be an integer from 0 to 999", param: "number")
                }
                let answered = try onPhone(params) { world, phone throws(EmulatorError) in
                    try world.answerPush(
                        phone: phone, messageId: messageId, approve: approve, number: number.map { Int($0) })
                }
                return .object(answered.summaryJSON)
            }
        }
        register("emulator.expirePush") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let messageId = try params.optionalString("messageId")
            let dropped = try onPhone(params) { world, phone throws(EmulatorError) in
                try world.expirePush(phone: phone, messageId: messageId)
            }
            return .object(dropped.summaryJSON)
        }
    }
}
