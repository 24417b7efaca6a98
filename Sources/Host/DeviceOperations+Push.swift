import AuthBridgeCore
import EmbeddedAM
import EmulatedDevice
import IdentityServer

/// Push on the emulated phones: scanning a `pushauth://` URI, the notifications the server's
/// push sender delivers, and answering them. The phone reaches the server only through AM's
/// push endpoint (`IdentityServer.pushMessage`), as a real authenticator app does over HTTP.
extension World {
    /// The name a phone gives AM for itself when it registers.
    static let phoneDeviceName = "AuthBridge emulated phone"

    /// Scans a registration URI on a phone and answers the registration; the phone keeps the
    /// mechanism only when the server took the answer.
    public func scanPush(phone id: String, uri: String) throws(EmulatorError) -> PushMechanism {
        guard let phone = phones.phone(id: id) else { throw EmulatorError(param: "phone", reason: "no phone \(id)") }
        let scanned: (mechanism: PushMechanism, registration: DeviceRequest)
        do {
            scanned = try PushMechanism.scan(
                uri, deviceToken: phone.deviceToken, mechanismUid: random.uuid(), deviceName: Self.phoneDeviceName,
                now: clock.now)
        } catch {
            throw EmulatorError(param: "uri", reason: "not a push registration URI: \(error.description)")
        }
        try send(scanned.registration, what: "registration")
        phones.update(id: id) { $0.push.append(scanned.mechanism) }
        return scanned.mechanism
    }

    /// The phone's pending notifications, oldest first; those past their time are dropped.
    public func pushNotifications(phone id: String) -> [PushNotification] {
        let now = clock.now
        return phones.update(id: id) { phone in
            phone.dropExpiredNotifications(now: now)
            return phone.notifications
        } ?? []
    }

    /// Approves (with the number chosen, for a number challenge) or denies a pending
    /// notification, the newest when none is named; answered, it leaves the phone.
    public func answerPush(
        phone id: String, messageId: String?, approve: Bool, number: Int?
    ) throws(EmulatorError) -> PushNotification {
        let notification = try pending(phone: id, messageId: messageId)
        if approve, notification.isNumberChallenge, number == nil {
            throw EmulatorError(
                param: "number",
                reason:
                    "the notification asks for a number: one of \(notification.numbers.map(String.init).joined(separator: ", "))"
            )
        }
        guard let phone = phones.phone(id: id),
            let request = phone.answer(notification: notification.id, approve: approve, number: number)
        else {
            throw EmulatorError(param: "messageId", reason: "the phone no longer holds the push registration it names")
        }
        try send(request, what: approve ? "approval" : "denial")
        phones.update(id: id) { $0.notifications.removeAll { $0.id == notification.id } }
        return notification
    }

    /// Lets a pending notification go unanswered: the phone drops it, and the server finds no
    /// answer until its time is up.
    public func expirePush(phone id: String, messageId: String?) throws(EmulatorError) -> PushNotification {
        let notification = try pending(phone: id, messageId: messageId)
        phones.update(id: id) { $0.notifications.removeAll { $0.id == notification.id } }
        return notification
    }

    private func pending(phone id: String, messageId: String?) throws(EmulatorError) -> PushNotification {
        let pending = pushNotifications(phone: id)
        if let messageId {
            guard let found = pending.first(where: { $0.id == messageId }) else {
                throw EmulatorError(param: "messageId", reason: "no pending notification \(messageId) on phone \(id)")
            }
            return found
        }
        guard let newest = pending.last else {
            throw EmulatorError(param: "phone", reason: "phone \(id) has no pending push notification")
        }
        return newest
    }

    /// Posts a phone's request to AM's push endpoint; anything but 200 is the test's error.
    private func send(_ request: DeviceRequest, what: String) throws(EmulatorError) {
        let reply: ServerReply
        do {
            reply = try Self.post(request, to: server)
        } catch {
            throw EmulatorError(param: "phone", reason: "the push \(what) could not reach the server: \(error.message)")
        }
        guard reply.status == 200 else {
            throw EmulatorError(
                param: "phone", reason: "the server refused the push \(what) (HTTP \(reply.status): \(reply.body))")
        }
    }

    /// The request over the seam: the endpoint's `_action` says which call it is.
    static func post(_ request: DeviceRequest, to server: any IdentityServer) throws(TransportError) -> ServerReply {
        guard let action = PercentEncoding.queryParameters(of: request.url)["_action"].flatMap(PushAction.init) else {
            return ServerReply(
                status: 400, body: ["code": 400, "reason": "Bad Request", "message": "Bad Request"])
        }
        return try server.pushMessage(action, body: request.body)
    }

    /// What plays Amazon SNS: a notification goes to every phone holding the push token it was
    /// sent to; a phone that cannot read it (no such mechanism, a bad signature) drops it.
    static func deliver(_ delivery: PushDelivery, to phones: Phones, now: Double) {
        for phone in phones.all where phone.deviceToken == delivery.deviceId {
            let refusal = phones.update(id: phone.id) { phone -> PushNotification.Refusal? in
                do throws(PushNotification.Refusal) {
                    try phone.receive(messageId: delivery.messageId, jwt: delivery.message, now: now)
                    return nil
                } catch {
                    return error
                }
            }
            if let refusal = refusal ?? nil {
                logInfo("push: phone \(phone.id) dropped message \(delivery.messageId) (\(refusal))")
            }
        }
    }
}
