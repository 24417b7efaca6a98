import AuthBridgeCore

/// What the embedded server would have sent a user out of band: one-time codes by e-mail or
/// SMS, and the links that resume suspended journeys. Tests read them back through
/// `emulator.lastOneTimeCode` and `emulator.lastSuspendedJourney` instead of a mailbox.
public struct Outbox: Sendable {
    public struct OneTimeCode: Equatable, Sendable {
        public var code: String
        public var delivery: String
        /// The address or number it went to ("" when the user has none on file).
        public var to: String
        public var username: String
        public var journey: String
        public var expiresAt: Double

        public init(code: String, delivery: String, to: String, username: String, journey: String, expiresAt: Double) {
            self.code = code
            self.delivery = delivery
            self.to = to
            self.username = username
            self.journey = journey
            self.expiresAt = expiresAt
        }
    }

    /// An e-mail an AM Email Template node sent: the template's name, not rendered text (the
    /// templates live in IDM, not in the export).
    public struct Email: Equatable, Sendable {
        public var template: String
        public var to: String
        public var username: String
        public var journey: String
        public var sentAt: Double
    }

    public struct SuspendLink: Equatable, Sendable {
        public var suspendedId: String
        public var resumeURI: String
        public var to: String
        public var username: String
        public var journey: String
        public var expiresAt: Double
    }

    public private(set) var lastOneTimeCode: OneTimeCode?
    public private(set) var lastSuspendLink: SuspendLink?
    public private(set) var lastEmail: Email?

    mutating func send(_ code: OneTimeCode) { lastOneTimeCode = code }
    mutating func send(_ link: SuspendLink) { lastSuspendLink = link }
    mutating func send(_ email: Email) { lastEmail = email }
}

extension Outbox.OneTimeCode {
    public var json: JSONValue {
        [
            "code": .string(code), "delivery": .string(delivery), "to": .string(to), "username": .string(username),
            "journey": .string(journey), "expiresAt": .double(expiresAt),
        ]
    }
}

extension Outbox.SuspendLink {
    public var json: JSONValue {
        [
            "suspendedId": .string(suspendedId), "resumeUri": .string(resumeURI), "to": .string(to),
            "username": .string(username), "journey": .string(journey), "expiresAt": .double(expiresAt),
        ]
    }
}
