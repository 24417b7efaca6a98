import AuthBridgeCore
import EmulatedDevice
import NativeSDK

/// `RNPingPush`, the successor SDK's push MFA TurboModule (`push/src/NativeRNPingPush.ts`; native
/// `push/ios/RNPingPushCommon.swift`, `push/android/…/RNPingPushCommon.kt`, over ping-ios
/// `Push/` and ping-android `mfa/push`). Its credentials and notifications live on the app's
/// emulated phone (`Phones.appPhoneId`), registered, received and answered by the same
/// `DeviceAnswers` push code the old bridges' authenticator uses: a registration posts to AM's
/// push endpoint (`?_action=register`), an approval or denial to `?_action=authenticate`, each a
/// JWT signed with the shared secret. A notification AM's push sender delivers to the app's
/// token reaches JS as `com.pingidentity.rnpush.PushMessageReceived` with the platform's
/// message data, which the JS layer hands back to `processNotification`.
public final class RNPingPushModule: NativeModule {
    public let name = "RNPingPush"
    public let namespace = "RNPingPush"
    /// `push/src/events.ts` `PUSH_MESSAGE_RECEIVED`. The token events carry a bare string, which a
    /// JSON-RPC notification cannot; `refreshToken` answers the token instead.
    public static let messageReceived = "com.pingidentity.rnpush.PushMessageReceived"
    public var events: [String] { [Self.messageReceived] }

    private let context: PingModuleContext
    private let platform: PushPlatform
    private var clients: [String: PushClientConfig] = [:]
    /// Messages delivered while no client was initialized (the native queue JS drains with
    /// `consumePendingMessages` on a cold start).
    private var pendingMessages: [JSONValue] = []

    public init(_ context: PingModuleContext) {
        self.context = context
        platform = PushPlatform(platform: context.sdk.platform)
        context.device.onPushReceived = { [unowned self] phone, notification, jwt in
            self.received(phone: phone, notification: notification, jwt: jwt)
        }
    }

    private var device: DeviceAnswers { context.device }
    private var phones: Phones { context.device.phones }
    private var app: Phone { phones.appPhone() }
    private var now: Double { context.device.clock.now }

    public var methods: [NativeMethod] {
        [
            NativeMethod("initialize") { args throws(BridgeError) in try self.initialize(args) },
            method("addCredentialFromUri", ["uri"]) { args throws(BridgeError) in try self.addCredential(args) },
            method("getCredential", ["credentialId"]) { args throws(BridgeError) in
                let id = try Arguments.string(args, 1, "credentialId")
                let found = self.app.push.first { $0.id == id }
                return ["credential": found.map(self.credentialJSON) ?? .null]
            },
            method("getCredentials", []) { _ throws(BridgeError) in
                ["credentials": .array(self.app.push.map(self.credentialJSON))]
            },
            method("saveCredential", ["credential"]) { args throws(BridgeError) in try self.saveCredential(args) },
            method("deleteCredential", ["credentialId"]) { args throws(BridgeError) in
                let id = try Arguments.string(args, 1, "credentialId")
                let removed = self.phones.update(id: Phones.appPhoneId) { phone -> Bool in
                    let before = phone.push.count
                    phone.push.removeAll { $0.id == id }
                    return phone.push.count < before
                }
                return .bool(removed ?? false)
            },
            method("setDeviceToken", ["token", "credentialId"]) { args throws(BridgeError) in
                let token = try Arguments.string(args, 1, "token")
                return .bool(
                    try self.setDeviceToken(token, credentialId: try Self.optionalString(args, 2, "credentialId")))
            },
            method("getDeviceToken", []) { _ throws(BridgeError) in
                ["token": self.app.appPushToken.map(JSONValue.string) ?? .null]
            },
            method("refreshToken", []) { _ throws(BridgeError) in
                guard self.platform.fetchesToken else { return ["token": .null] }
                // ping-android's bridge reads FCM's token for this app: the phone's own.
                let token = self.app.deviceToken
                _ = try self.setDeviceToken(token, credentialId: nil)
                return ["token": .string(token)]
            },
            method("processNotification", ["messageData"]) { args throws(BridgeError) in
                let data = try Arguments.object(args, 1, "messageData")
                return ["notification": self.process(data)]
            },
            method("processNotificationFromMessage", ["message"]) { args throws(BridgeError) in
                let message = try Arguments.string(args, 1, "message")
                // ping-ios/ping-android `parseMessage(message:)`: the id is the signature's first 8 characters.
                let signature = message.split(separator: ".", omittingEmptySubsequences: false).last ?? ""
                return ["notification": self.receive(messageId: String(signature.prefix(8)), jwt: message)]
            },
            method("approveNotification", ["notificationId"]) { args throws(BridgeError) in
                try self.respond(args, approve: true, challengeResponse: nil)
            },
            method("approveChallengeNotification", ["notificationId", "challengeResponse"]) {
                args throws(BridgeError) in
                let response = try Arguments.string(args, 2, "challengeResponse")
                try self.requireText(response, "Challenge response")
                return try self.respond(args, approve: true, challengeResponse: Self.trimmed(response))
            },
            method("approveBiometricNotification", ["notificationId", "authenticationMethod"]) {
                args throws(BridgeError) in
                // The method is the app's business: AM's answer carries no trace of it.
                try self.requireText(try Arguments.string(args, 2, "authenticationMethod"), "Authentication method")
                return try self.respond(args, approve: true, challengeResponse: nil)
            },
            method("denyNotification", ["notificationId"]) { args throws(BridgeError) in
                try self.respond(args, approve: false, challengeResponse: nil)
            },
            method("getPendingNotifications", []) { _ throws(BridgeError) in
                let now = self.now
                return ["notifications": self.notificationsJSON { $0.isPending && $0.expiresAt > now }]
            },
            method("getAllNotifications", []) { _ throws(BridgeError) in
                ["notifications": self.notificationsJSON { _ in true }]
            },
            method("getNotification", ["notificationId"]) { args throws(BridgeError) in
                let id = try Arguments.string(args, 1, "notificationId")
                return ["notification": self.notificationsJSON { $0.appId == id }.arrayValue?.first ?? .null]
            },
            method("cleanupNotifications", ["credentialId"]) { args throws(BridgeError) in
                let client = try self.client(args)
                return .int(Int64(self.cleanup(client, credentialId: try Self.optionalString(args, 1, "credentialId"))))
            },
            NativeMethod("close") { args throws(BridgeError) in
                // An unknown or closed client resolves too (both bridges).
                let id = try Arguments.string("close", args, name: "clientId")
                self.clients[id] = nil
                return .null
            },
            NativeMethod("consumePendingMessages") { args throws(BridgeError) in
                try Arguments.none("consumePendingMessages", args)
                defer { self.pendingMessages.removeAll() }
                return .array(self.pendingMessages)
            },
        ]
    }

    /// A method whose first argument is the client id: an unknown id rejects before anything
    /// else (`getClient`), then `body` runs.
    private func method(
        _ name: String, _ names: [String], _ body: @escaping ([JSONValue]) throws(BridgeError) -> JSONValue
    ) -> NativeMethod {
        NativeMethod(name) { args throws(BridgeError) in
            try Arguments.count(name, args, ["clientId"] + names)
            _ = try self.client(args)
            return try body(args)
        }
    }

    private func client(_ args: [JSONValue]) throws(BridgeError) -> PushClientConfig {
        let id = try Arguments.string(args, 0, "clientId")
        guard let client = clients[id] else { throw platform.reject(.clientNotFound(id)) }
        return client
    }

    // MARK: initialize

    private func initialize(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("initialize", args, ["config"])
        let config = try Arguments.reader(args, 0, "config")
        var client = PushClientConfig()
        let storageId: String?
        do {
            storageId = try config.optionalString("storageId")
            if let mode = try config.optionalString("cleanupMode"), !mode.isEmpty { client.cleanupMode = mode }
            if let count = try config["maxStoredNotifications"].optionalDouble() { client.maxStored = Int(count) }
            if let days = try config["maxNotificationAgeDays"].optionalDouble() { client.maxAgeDays = Int(days) }
        } catch {
            throw .invalidParams(error, param: "0")
        }
        // ping-ios resolves the storage handle and refuses an unknown one; ping-android's
        // `buildPushClient` quietly keeps the default storage.
        if let storageId, !storageId.isEmpty, context.storages.config(.push, id: storageId) == nil,
            context.sdk.platform == .ios
        {
            throw platform.reject(.storageNotFound(storageId))
        }
        let id = context.sdk.newId()
        clients[id] = client
        phones.appPhone()
        return .string(id)
    }

    // MARK: credentials

    private func credentialJSON(_ mechanism: PushMechanism) -> JSONValue {
        PushSerializers.credential(mechanism, platform: context.sdk.platform)
    }

    /// ping-ios/ping-android `PushService.addCredentialFromUri`: parse, (Android) refuse a
    /// duplicate, require the device token, register with AM, keep.
    private func addCredential(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let uri = Self.trimmed(try Arguments.string(args, 1, "uri"))
        guard !uri.isEmpty else { throw platform.reject(.invalidURI("Enrollment URI cannot be empty")) }
        let identity: (issuer: String, accountName: String)
        do {
            identity = try PushMechanism.identity(of: uri)
        } catch {
            throw platform.reject(.invalidURI(error.description))
        }
        if platform.refusesDuplicates,
            app.push.contains(where: { $0.issuer == identity.issuer && $0.accountName == identity.accountName })
        {
            throw platform.reject(.duplicate(issuer: identity.issuer, account: identity.accountName))
        }
        guard app.appPushToken != nil else { throw platform.reject(.tokenNotSet) }
        do {
            let mechanism = try device.registerPush(
                phone: Phones.appPhoneId, uri: uri, mechanismUid: context.sdk.newId(),
                deviceName: DeviceAnswers.phoneDeviceName, device: platform.deviceKind)
            return credentialJSON(mechanism)
        } catch {
            throw platform.reject(Self.failure(error, .registration))
        }
    }

    /// Only the names shown can change: the secret never crosses the bridge, so a credential
    /// this phone does not hold cannot be saved (`credential_not_found`).
    private func saveCredential(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let credential = try Arguments.reader(args, 1, "credential")
        let id: String
        let displayIssuer: String?
        let displayAccountName: String?
        do {
            id = try credential.string("id")
            _ = try credential.string("issuer")
            _ = try credential.string("accountName")
            displayIssuer = try credential.optionalString("displayIssuer")
            displayAccountName = try credential.optionalString("displayAccountName")
        } catch {
            throw .invalidParams(error, param: "1")
        }
        let saved = phones.update(id: Phones.appPhoneId) { phone -> PushMechanism? in
            guard let index = phone.push.firstIndex(where: { $0.id == id }) else { return nil }
            phone.push[index].displayIssuer = displayIssuer
            phone.push[index].displayAccountName = displayAccountName
            return phone.push[index]
        }
        guard let saved = saved ?? nil else { throw platform.reject(.credentialNotFound(id)) }
        return credentialJSON(saved)
    }

    // MARK: device token

    /// ping-ios/ping-android `PushService.setDeviceToken`: an unchanged token is `true` at once;
    /// a new one is kept, then sent to AM for each registered credential (`?_action=refresh`).
    /// The embedded push endpoint serves `register` and `authenticate` only, so with credentials
    /// the update fails and the call resolves `false`, as the SDK resolves when AM refuses.
    private func setDeviceToken(_ token: String, credentialId: String?) throws(BridgeError) -> Bool {
        let trimmed = Self.trimmed(token)
        try requireText(trimmed, "Device token")
        guard app.appPushToken != trimmed else { return true }
        phones.update(id: Phones.appPhoneId) { $0.appPushToken = trimmed }
        // One credential named (unknown: false too), or every credential: nothing to tell AM only
        // when none is registered.
        return credentialId == nil && app.push.isEmpty
    }

    // MARK: notifications

    /// The SDK's ids for the app phone's notifications: each gets one the first time the app's
    /// push client handles it.
    private func assignIds() {
        guard app.notifications.contains(where: { $0.appId == nil }) else { return }
        phones.update(id: Phones.appPhoneId) { phone in
            for index in phone.notifications.indices where phone.notifications[index].appId == nil {
                phone.notifications[index].appId = context.sdk.newId()
            }
        }
    }

    private func notificationsJSON(_ include: (PushNotification) -> Bool) -> JSONValue {
        assignIds()
        return .array(
            app.notifications.filter(include).map { notification in
                PushSerializers.notification(
                    notification, appId: notification.appId ?? "", platform: context.sdk.platform)
            })
    }

    /// A message AM's push sender delivered to a phone: on the app's, the bridge forwards it to
    /// JS, or queues it while no client is initialized.
    private func received(phone: String, notification: PushNotification, jwt: String) {
        guard phone == Phones.appPhoneId else { return }
        let data = platform.messageData(messageId: notification.id, jwt: jwt, text: notification.message)
        if clients.isEmpty {
            pendingMessages.append(data)
        } else {
            context.events.emit(Self.messageReceived, data)
        }
    }

    /// `processNotification(messageData)`: iOS unwraps APNs' `aps` (`data` → `message`,
    /// `messageId`); a payload that is not AM's resolves `null` (`canHandle`).
    private func process(_ data: JSONObject) -> JSONValue {
        var fields = data
        if case .object(let aps)? = data["aps"], context.sdk.platform == .ios {
            fields["aps"] = nil
            if let jwt = aps["data"] { fields["message"] = jwt }
            if let id = aps["messageId"] { fields["messageId"] = id }
        }
        guard case .string(let messageId)? = fields["messageId"], !messageId.isEmpty,
            case .string(let jwt)? = fields["message"]
        else { return .null }
        return receive(messageId: messageId, jwt: jwt)
    }

    /// The notification for a message: the one the phone already holds, else the message read
    /// now. The phone checks the JWT against the credential's secret, as the ForgeRock
    /// Authenticator did (the Ping SDKs only parse it): a message no credential here signed,
    /// or that is not AM's, resolves `null`.
    private func receive(messageId: String, jwt: String) -> JSONValue {
        let now = now
        phones.update(id: Phones.appPhoneId) { phone in _ = try? phone.receive(messageId: messageId, jwt: jwt, now: now)
        }
        return notificationsJSON { $0.id == messageId }.arrayValue?.first ?? .null
    }

    /// ping-ios/ping-android `PushService.approveNotification`/`denyNotification`.
    private func respond(
        _ args: [JSONValue], approve: Bool, challengeResponse: String?
    ) throws(BridgeError)
        -> JSONValue
    {
        let id = try Arguments.string(args, 1, "notificationId")
        assignIds()
        guard let notification = app.notifications.first(where: { $0.appId == id }) else {
            throw platform.reject(.notificationNotFound(id))
        }
        guard notification.isPending else { return false }
        let ttl = Int((notification.expiresAt - notification.sentAt).rounded())
        if platform.checksExpiry, notification.expiresAt <= now { throw platform.reject(.expired(id, ttl: ttl)) }
        guard app.push.contains(where: { $0.id == notification.mechanismUid }) else {
            throw platform.reject(.credentialNotFound(notification.mechanismUid))
        }
        if approve, notification.isNumberChallenge, challengeResponse == nil {
            if platform.rejectsChallengeWithoutNumber { throw platform.reject(.challengeRequired) }
            return false
        }
        do {
            try device.respondToPush(
                phone: Phones.appPhoneId, messageId: notification.id, approve: approve,
                challengeResponse: challengeResponse)
        } catch {
            throw platform.reject(Self.failure(error, approve ? .approval : .denial))
        }
        return true
    }

    private func cleanup(_ client: PushClientConfig, credentialId: String?) -> Int {
        let now = now
        return phones.update(id: Phones.appPhoneId) { phone -> Int in
            let doomed = client.cleanup(phone.notifications, credentialId: credentialId, now: now)
            phone.notifications.removeAll { doomed.contains($0.id) }
            return doomed.count
        } ?? 0
    }

    // MARK: helpers

    private static func failure(_ error: DeviceAnswers.Failure, _ call: PushFailure.Call) -> PushFailure {
        if error.param == "uri" { return .invalidURI(error.reason) }
        if let refusal = error.refusal { return .refused(call, status: refusal.status, body: refusal.body) }
        return .unreachable(call, error.reason)
    }

    private func requireText(_ value: String, _ what: String) throws(BridgeError) {
        // ping-ios `PushClient` refuses blank values; ping-android passes them on.
        if context.sdk.platform == .ios, Self.trimmed(value).isEmpty { throw platform.reject(.emptyValue(what)) }
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// A `string | null` argument.
    private static func optionalString(
        _ args: [JSONValue], _ position: Int, _ name: String
    ) throws(BridgeError)
        -> String?
    {
        guard position < args.count, args[position] != .null else { return nil }
        return try Arguments.string(args, position, name)
    }
}
