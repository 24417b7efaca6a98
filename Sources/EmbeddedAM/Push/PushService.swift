import AuthBridgeCore
import IdentityServer

/// AM's push notification service, in process: the messages it expects an authenticator to
/// answer (what AM keeps in its Core Token Service, each with the predicates its answer must
/// meet), its device endpoint `/push/sns/message`, and the sender that hands notifications to
/// whoever plays Amazon SNS (`onNotification`: the Host routes them to the emulated phones).
/// ForgeRock/am-external `openam-push-notification`: `dispatch/MessageDispatcher.java`,
/// `dispatch/handlers/{Reg,Auth}ClusterMessageHandler.java`, `PushMessageResource.java`.
public final class PushService {
    /// How long a message waits for its answer: the service's "Message Dispatcher Duration"
    /// (`PushNotificationServiceConfig.mdDuration`, 120 seconds by default).
    public static let messageLifetime: Double = 120
    /// What AM's load balancer cookie is when there is one server (`SessionCookies.getLBCookie`).
    static let loadBalancerCookie = "amlbcookie=01"
    /// Messages kept at most: an unanswered one goes when its time is up, and the oldest first
    /// past this many.
    static let cap = 2_000

    enum MessageType: String {
        case register = "REGISTER"
        case authenticate = "AUTHENTICATE"
    }

    /// AM's `MessageState`; a message that is gone or past its time has none (nil).
    enum State: Equatable {
        case unknown
        case success
        case denied
    }

    struct Message {
        var type: MessageType
        var secret: [UInt8]
        var challenge: String
        var expires: Double
        var state = State.unknown
        /// What the answer left for the node: the device's fields for a registration, the chosen
        /// number for an authentication.
        var contents: JSONObject = [:]
    }

    private var messages: [String: Message] = [:]
    private var order: [String] = []
    private let clock: Clock
    private let random: RandomSource

    /// Told of every notification the sender sends (Amazon SNS's part).
    public var onNotification: ((PushDelivery) -> Void)?
    /// The last notification sent, as SNS was handed it: what a test reads to answer as a
    /// real authenticator app would (`emulator.lastPushNotification`).
    public private(set) var lastDelivery: PushDelivery?

    init(clock: Clock, random: RandomSource) {
        self.clock = clock
        self.random = random
    }

    // MARK: what the nodes use

    /// A new message id of AM's form, `<TYPE>:<uuid><milliseconds>` (`MessageIdFactory.create`).
    func newMessageId(_ type: MessageType) -> String {
        "\(type.rawValue):\(random.uuid().lowercased())\(Int64((clock.now * 1000).rounded(.down)))"
    }

    /// 32 random bytes, standard base64: a shared secret or a challenge
    /// (`UserPushDeviceProfileManager.createRandomBytes`).
    func randomBytes() -> String { Base64.encode(random.bytes(32)) }

    /// Waits for an answer to `id` signed with `secret` that answers `challenge`
    /// (`MessageDispatcher.expectInCluster`).
    func expect(_ id: String, type: MessageType, secret: [UInt8], challenge: String) {
        prune()
        if messages[id] == nil { order.append(id) }
        messages[id] = Message(
            type: type, secret: secret, challenge: challenge, expires: clock.now + Self.messageLifetime)
    }

    /// The message's state; nil when it was never sent, was deleted, or its time is up
    /// (`AbstractClusterMessageHandler.check`).
    func check(_ id: String) -> State? {
        guard let message = messages[id], clock.now < message.expires else { return nil }
        return message.state
    }

    /// What the answer left, if the message is still here.
    func contents(_ id: String) -> JSONObject? { messages[id]?.contents }

    func delete(_ id: String) {
        messages[id] = nil
        order.removeAll { $0 == id }
    }

    /// Sends a notification (SNS's publish).
    func send(_ delivery: PushDelivery) {
        lastDelivery = delivery
        onNotification?(delivery)
    }

    // MARK: the device endpoint

    /// AM answers every refusal alike (`RestUtils.generateBadRequestException`): 400 Bad Request,
    /// nothing stored.
    static let badRequest = ServerReply(
        status: 400, body: ["code": 400, "reason": "Bad Request", "message": "Bad Request"])

    /// `POST …/push/sns/message?_action=register|authenticate` with `{messageId, jwt}`. As in
    /// AM, the message id's type, not the action, says how the answer is read (both actions are
    /// `PushMessageResource.handle`). A message that was already answered refuses another answer,
    /// so a replayed response is refused.
    func handle(_ action: PushAction, body: JSONValue) -> ServerReply {
        guard case .object(let object) = body, case .string(let id)? = object["messageId"],
            var message = messages[id], clock.now < message.expires, message.state == .unknown
        else { return Self.badRequest }
        let answer: PushAnswer
        do {
            answer = try PushAnswer.check(object, secret: message.secret, challenge: message.challenge)
        } catch {
            logInfo("push: answer to \(id) refused (\(error))")
            return Self.badRequest
        }
        switch message.type {
        case .register:
            // `SnsRegistrationPredicate` / `PushResponseUpdater`: the device's fields, and the
            // SNS endpoint made for its token.
            guard let mechanismUid = answer.string("mechanismUid"), let deviceId = answer.string("deviceId"),
                !deviceId.isEmpty, let deviceType = answer.string("deviceType"),
                let communicationType = answer.string("communicationType")
            else { return Self.badRequest }
            message.contents = [
                "mechanismUid": .string(mechanismUid), "deviceType": .string(deviceType),
                "deviceId": .string(deviceId), "communicationType": .string(communicationType),
                "communicationId": .string(Self.endpointARN(communicationType: communicationType, token: deviceId)),
            ]
            if let name = answer.string("deviceName") { message.contents["deviceName"] = .string(name) }
            message.state = .success
        case .authenticate:
            // `AuthClusterMessageHandler.update`: any `deny` claim denies.
            if let number = answer.claims["challengeResponse"], number != .null {
                guard let chosen = Self.integer(number) else { return Self.badRequest }
                message.contents["challengeResponse"] = .int(chosen)
            }
            let denied = answer.claims["deny"].map { $0 != .null } ?? false
            message.state = denied ? .denied : .success
        }
        messages[id] = message
        return ServerReply(status: 200, body: .object([:]))
    }

    /// The SNS platform endpoint AM creates for a device token: an ARN under the platform
    /// application of its communication type.
    static func endpointARN(communicationType: String, token: String) -> String {
        let platform = communicationType.lowercased() == "apns" ? "APNS" : "GCM"
        return "arn:aws:sns:us-east-1:000000000000:endpoint/\(platform)/authbridge/\(token)"
    }

    /// AM reads the number with `Integer.parseInt(claim.toString())`.
    private static func integer(_ value: JSONValue) -> Int64? {
        switch value {
        case .int(let number): return number
        case .string(let text): return Int64(text)
        default: return nil
        }
    }

    private func prune() {
        let now = clock.now
        if order.contains(where: { (messages[$0]?.expires ?? 0) <= now }) {
            order.removeAll { id in
                guard let message = messages[id], message.expires > now else {
                    messages[id] = nil
                    return true
                }
                return false
            }
        }
        while order.count >= Self.cap { messages[order.removeFirst()] = nil }
    }
}

/// A notification as the sender hands it to SNS: the recipient (the device's SNS endpoint and
/// push token) and the data an authenticator app receives, `messageId` and `message` (the
/// HS256 JWT with the challenge; forgerock-android-sdk `forgerock-authenticator/.../NotificationFactory.java`).
public struct PushDelivery: Equatable, Sendable {
    public var communicationId: String
    /// The phone's push token the device registered with.
    public var deviceId: String
    public var messageId: String
    public var message: String
    /// The text shown in the notification.
    public var subject: String
    public var pushType: String

    public var json: JSONValue {
        [
            "messageId": .string(messageId), "message": .string(message), "deviceId": .string(deviceId),
            "communicationId": .string(communicationId), "subject": .string(subject), "pushType": .string(pushType),
        ]
    }
}
