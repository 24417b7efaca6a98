import AuthBridgeCore
import EmulatedDevice
import IdentityServer
import NativeSDK

/// Push: scanning a `pushauth://` URI and answering notifications, as an app with the
/// ForgeRock Authenticator module does (forgerock-android-sdk `forgerock-authenticator`
/// `FRAClient.createMechanismFromUri`, `PushNotification.accept`/`deny`). Under
/// `--callbacks complete` the app scans the Push Registration step's URI for the user named in
/// it (`uid`), once per registration message, and, whenever it polls a step with a
/// PollingWaitCallback without choosing to leave, approves the newest notification pending on
/// its user's phone, tapping the number the page shows (`pushChallengeNumber`) for a number
/// challenge, as the person holding the phone would.
extension DeviceAnswers {
    /// The name a phone gives AM for itself when it registers.
    static let phoneDeviceName = "AuthBridge emulated phone"

    /// Scans a registration URI on a phone and answers the registration; the phone keeps the
    /// mechanism only when the server took the answer.
    public func scanPush(phone id: String, uri: String) throws(Failure) -> PushMechanism {
        try registerPush(phone: id, uri: uri, mechanismUid: random.uuid(), deviceName: Self.phoneDeviceName)
    }

    /// The registration both authenticators make (the ForgeRock Authenticator's, and the Ping
    /// SDK's `addCredentialFromUri`, ping-ios `PushService.addCredentialFromUri`): the phone's
    /// push token as `deviceId`, the mechanism uid the app chose, the device kind it reports.
    public func registerPush(
        phone id: String, uri: String, mechanismUid: String, deviceName: String,
        device: PushDeviceKind = .authenticator
    ) throws(Failure) -> PushMechanism {
        guard let phone = phones.phone(id: id) else { throw Failure(param: "phone", reason: "no phone \(id)") }
        let scanned: (mechanism: PushMechanism, registration: DeviceRequest)
        do {
            scanned = try PushMechanism.scan(
                uri, deviceToken: phone.pushToken, mechanismUid: mechanismUid, deviceName: deviceName,
                now: clock.now, device: device)
        } catch {
            throw Failure(param: "uri", reason: "not a push registration URI: \(error.description)")
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
            return phone.notifications.filter(\.isPending)
        } ?? []
    }

    /// Approves (with the number chosen, for a number challenge) or denies a pending
    /// notification, the newest when none is named; answered, it is marked so.
    public func answerPush(
        phone id: String, messageId: String?, approve: Bool, number: Int?
    ) throws(Failure) -> PushNotification {
        let notification = try pending(phone: id, messageId: messageId)
        if approve, notification.isNumberChallenge, number == nil {
            throw Failure(
                param: "number",
                reason:
                    "the notification asks for a number: one of \(notification.numbers.map(String.init).joined(separator: ", "))"
            )
        }
        try respondToPush(
            phone: id, messageId: notification.id, approve: approve, challengeResponse: number.map(String.init))
        return notification
    }

    /// Sends a phone's answer to a pending notification and marks it answered once the server
    /// took it; what every authenticator on the phone does to approve or deny.
    public func respondToPush(
        phone id: String, messageId: String, approve: Bool, challengeResponse: String?
    ) throws(Failure) {
        guard
            let request = phones.phone(id: id)?.answer(
                notification: messageId, approve: approve, challengeResponse: challengeResponse)
        else {
            throw Failure(param: "messageId", reason: "the phone no longer holds the push registration it names")
        }
        try send(request, what: approve ? "approval" : "denial")
        let now = clock.now
        phones.update(id: id) { $0.markAnswered(notification: messageId, approved: approve, now: now) }
    }

    /// Lets a pending notification go unanswered: the phone drops it, and the server finds no
    /// answer until its time is up.
    public func expirePush(phone id: String, messageId: String?) throws(Failure) -> PushNotification {
        let notification = try pending(phone: id, messageId: messageId)
        phones.update(id: id) { $0.notifications.removeAll { $0.id == notification.id } }
        return notification
    }

    private func pending(phone id: String, messageId: String?) throws(Failure) -> PushNotification {
        let pending = pushNotifications(phone: id)
        if let messageId {
            guard let found = pending.first(where: { $0.id == messageId }) else {
                throw Failure(param: "messageId", reason: "no pending notification \(messageId) on phone \(id)")
            }
            return found
        }
        guard let newest = pending.last else {
            throw Failure(param: "phone", reason: "phone \(id) has no pending push notification")
        }
        return newest
    }

    /// Posts a phone's request to AM's push endpoint (its `_action` says which call it is);
    /// anything but 200 is refused, with the server's status and body.
    private func send(_ request: DeviceRequest, what: String) throws(Failure) {
        guard let action = PercentEncoding.queryParameters(of: request.url)["_action"].flatMap(PushAction.init) else {
            throw Failure(param: "phone", reason: "the push \(what) names no endpoint action")
        }
        let reply: ServerReply
        do {
            reply = try server.pushMessage(action, body: request.body)
        } catch {
            throw Failure(param: "phone", reason: "the push \(what) could not reach the server: \(error.message)")
        }
        guard reply.status == 200 else {
            var failure = Failure(
                param: "phone", reason: "the server refused the push \(what) (HTTP \(reply.status): \(reply.body))")
            failure.refusal = Failure.ServerRefusal(status: reply.status, body: JSONWriter().string(reply.body))
            throw failure
        }
    }

    /// What plays Amazon SNS: a notification goes to every phone holding the push token it was
    /// sent to; a phone that cannot read it (no such mechanism, a bad signature) drops it. A
    /// notification new on a phone is handed to `onPushReceived` (the app's push module).
    public func deliver(messageId: String, jwt: String, deviceToken: String) {
        let now = clock.now
        for phone in phones.all where phone.pushToken == deviceToken {
            let outcome = phones.update(id: phone.id) { phone -> Result<Bool, PushNotification.Refusal> in
                do throws(PushNotification.Refusal) {
                    return .success(try phone.receive(messageId: messageId, jwt: jwt, now: now))
                } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case .success(true)?:
                if let received = phones.phone(id: phone.id)?.notifications.last {
                    onPushReceived?(phone.id, received, jwt)
                }
            case .failure(let refusal)?: logInfo("push: phone \(phone.id) dropped message \(messageId) (\(refusal))")
            default: break
            }
        }
    }

    // MARK: --callbacks complete

    func answerPush(_ node: inout Node) {
        var polling = false
        var leaving = false
        var shownNumber: Int?
        for index in node.callbacks.indices {
            let callback = node.callbacks[index]
            switch node.callbackType(at: index) {
            case .hiddenValue:
                let id = Self.output(callback, "id")?.stringValue
                let value = Self.output(callback, "value")?.stringValue ?? ""
                if id == "mfaDeviceRegistration", value.hasPrefix("pushauth://") { scanOnce(value) }
                if id == "pushChallengeNumber" { shownNumber = Int(value) }
            case .pollingWait: polling = true
            case .confirmation:
                leaving = Self.selectedIndex(callback["input"]?.arrayValue?.first?["value"]) == 0
            default: break
            }
        }
        // A user without a phone yet has nothing to approve (and none is made for them here).
        guard polling, !leaving, let username, let id = phones.phones(of: username).first?.id,
            let newest = pushNotifications(phone: id).last
        else { return }
        let number = newest.isNumberChallenge ? shownNumber : nil
        do {
            _ = try answerPush(phone: id, messageId: newest.id, approve: true, number: number)
        } catch {
            logInfo("push: the app could not approve \(newest.id): \(error.reason)")
        }
    }

    /// The registration step repeats while it polls: its URI is scanned the first time only.
    private func scanOnce(_ uri: String) {
        let query = PercentEncoding.queryParameters(of: uri)
        guard let messageId = query["m"], !scannedMessages.contains(messageId) else { return }
        scannedMessages.insert(messageId)
        let named = query["uid"].flatMap(Base64URL.decode).map { String(decoding: $0, as: UTF8.self) }
        guard let owner = named ?? username else { return }
        do {
            _ = try scanPush(phone: phones.phone(of: owner).id, uri: uri)
        } catch {
            logInfo("push: the app could not register: \(error.reason)")
        }
    }

    private static func output(_ callback: JSONValue, _ name: String) -> JSONValue? {
        callback["output"]?.arrayValue?.first { $0["name"]?.stringValue == name }?["value"]
    }

    /// A confirmation's selected index as the SDKs read it (a number, or a numeric string).
    private static func selectedIndex(_ value: JSONValue?) -> Int? {
        if let number = value?.intValue { return Int(number) }
        return value?.stringValue.flatMap { Int($0) }
    }
}
