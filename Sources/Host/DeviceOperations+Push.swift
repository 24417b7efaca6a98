import AuthBridgeCore
import EmulatedDevice
import NativeModules

/// Push on the emulated phones at a test's request (`emulator.scanPush`, …): what the app's
/// authenticator module does (`DeviceAnswers+Push.swift`), its refusals as `EmulatorError`s.
extension World {
    public func scanPush(phone id: String, uri: String) throws(EmulatorError) -> PushMechanism {
        try emulated { () throws(DeviceAnswers.Failure) in try deviceAnswers.scanPush(phone: id, uri: uri) }
    }

    public func pushNotifications(phone id: String) -> [PushNotification] { deviceAnswers.pushNotifications(phone: id) }

    public func answerPush(
        phone id: String, messageId: String?, approve: Bool, number: Int?
    ) throws(EmulatorError) -> PushNotification {
        try emulated { () throws(DeviceAnswers.Failure) in
            try deviceAnswers.answerPush(phone: id, messageId: messageId, approve: approve, number: number)
        }
    }

    public func expirePush(phone id: String, messageId: String?) throws(EmulatorError) -> PushNotification {
        try emulated { () throws(DeviceAnswers.Failure) in try deviceAnswers.expirePush(phone: id, messageId: messageId)
        }
    }

    private func emulated<T>(_ work: () throws(DeviceAnswers.Failure) -> T) throws(EmulatorError) -> T {
        do {
            return try work()
        } catch {
            throw EmulatorError(param: error.param, reason: error.reason)
        }
    }
}
