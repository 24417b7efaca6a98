import AuthBridgeCore

/// A test user's phone: the software authenticators an app or an authenticator app on a real
/// phone would hold. It never reads the server's state: it learns what it holds from what a real
/// phone is given (an `otpauth://` or `pushauth://` URI, a WebAuthn or device-binding
/// challenge, a push notification) and answers as a real one does.
public struct Phone: Equatable, Sendable {
    /// `ada` for Ada's first phone, `ada#2` for a second one (`Phones.clone`).
    public let id: String
    /// The username of the user it belongs to, as first given.
    public let owner: String
    /// The push token a phone registers with (what AM's SNS endpoint addresses), fixed when the
    /// phone is made.
    public let deviceToken: String
    /// The push token the app handed its push SDK (`RNPingPush.setDeviceToken`, or Android's
    /// `refreshToken`, which reads FCM's); nil until it does. The app's JS speaks for FCM/APNs
    /// there, so the token it supplies is the one the push service addresses this phone by.
    public var appPushToken: String?
    /// The token AM's push service addresses this phone by: the app's, else the phone's own.
    public var pushToken: String { appPushToken ?? deviceToken }
    public var oath: [OathCredential] = []
    public var push: [PushMechanism] = []
    /// Notifications delivered and not yet expired; an answered one stays, marked (`respondedAt`),
    /// as the authenticator's history keeps it.
    public var notifications: [PushNotification] = []
    public var passkeys: [Passkey] = []
    public var bindingKeys: [BindingKey] = []
    /// How the next biometric or PIN prompts are answered, first first (`Phone+DeviceBinding.swift`).
    public var promptAnswers: [PromptAnswer] = []

    public init(id: String, owner: String, deviceToken: String) {
        self.id = id
        self.owner = owner
        self.deviceToken = deviceToken
    }

    /// The same phone with nothing on it.
    public func wiped() -> Phone { Phone(id: id, owner: owner, deviceToken: deviceToken) }

    /// What a test may see of it: no secret or private key.
    public var summaryJSON: JSONObject {
        [
            "id": .string(id), "owner": .string(owner),
            "oath": .array(oath.map { .object($0.summaryJSON) }),
            "push": .array(push.map { .object($0.summaryJSON) }),
            "notifications": .array(notifications.map { .object($0.summaryJSON) }),
            "passkeys": .array(passkeys.map { .object($0.summaryJSON) }),
            "bindingKeys": .array(bindingKeys.map { .object($0.summaryJSON) }),
            "promptAnswers": .array(promptAnswers.map { .string($0.rawValue) }),
        ]
    }
}

/// One thing a phone holds (a credential, a key, a notification): saved with the phone, shown
/// to a test without its secrets.
public protocol PhoneRecord: Equatable, Sendable {
    /// The member of the phone's saved state its list goes under.
    static var stateKey: String { get }
    var stateJSON: JSONValue { get }
    init(state: StateReader) throws(StateError)
    var summaryJSON: JSONObject { get }
}

// MARK: saved state

extension Phone {
    var stateJSON: JSONValue {
        var json: JSONObject = ["id": .string(id), "owner": .string(owner), "deviceToken": .string(deviceToken)]
        if let appPushToken { json["appPushToken"] = .string(appPushToken) }
        func put<R: PhoneRecord>(_ list: [R]) {
            if !list.isEmpty { json[R.stateKey] = .array(list.map(\.stateJSON)) }
        }
        put(oath)
        put(push)
        put(notifications)
        put(passkeys)
        put(bindingKeys)
        put(promptAnswers)
        return .object(json)
    }

    init(state reader: StateReader) throws(StateError) {
        let known: Set<String> = [
            "id", "owner", "deviceToken", "appPushToken", OathCredential.stateKey, PushMechanism.stateKey,
            PushNotification.stateKey,
            Passkey.stateKey, BindingKey.stateKey, PromptAnswer.stateKey,
        ]
        for key in reader.object.members.map(\.key) where !known.contains(key) {
            throw StateError("\(reader.path).\(key): not saved state this authbridge knows")
        }
        self.init(
            id: try reader.string("id"), owner: try reader.string("owner"),
            deviceToken: try reader.string("deviceToken"))
        appPushToken = try reader.optionalString("appPushToken")
        func read<R: PhoneRecord>(_: R.Type) throws(StateError) -> [R] {
            var list: [R] = []
            for entry in try reader[R.stateKey].optionalReaders() ?? [] { list.append(try R(state: entry)) }
            return list
        }
        oath = try read(OathCredential.self)
        push = try read(PushMechanism.self)
        notifications = try read(PushNotification.self)
        passkeys = try read(Passkey.self)
        bindingKeys = try read(BindingKey.self)
        promptAnswers = try read(PromptAnswer.self)
    }
}
