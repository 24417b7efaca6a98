import AuthBridgeCore

/// Why a journey ended in AM's failure: the node whose outcome led there and the last reason a
/// node gave on the way (a wrong password, an unknown user, a locked account, a script no
/// scenario decided). Logged at info, traced, and kept for `emulator.lastFailure`. A reason names
/// users, nodes and policies, never a value the user typed.
public struct JourneyFailure: Equatable, Sendable {
    /// A node's account of a failing outcome: a stable `code` a test asserts on, a sentence, and
    /// typed fields where a test wants more than the code (`policies` that failed, the WebAuthn
    /// `check` or binding `claim` refused, the inner journey's own failure). Names, never values.
    public struct Reason: Equatable, Sendable {
        public let code: String
        public let message: String
        public let fields: JSONObject

        public init(_ code: String, _ message: String, _ fields: JSONObject = [:]) {
            self.code = code
            self.message = message
            self.fields = fields
        }

        /// The reasons several nodes give alike.
        static func unknownUser(_ username: String) -> Reason {
            Reason("unknown_user", "no user \(username.isEmpty ? "(none given)" : username) in the directory")
        }

        static func wrongPassword(_ username: String) -> Reason {
            Reason("wrong_password", "the password given for \(username) is wrong")
        }

        static func accountLocked(_ username: String) -> Reason {
            Reason("account_locked", "the account \(username) is locked")
        }
    }

    /// A node as the journey names it.
    public struct NodeRef: Equatable, Sendable {
        public let id: String
        public let type: String
        public let name: String?

        var json: JSONObject {
            var object: JSONObject = ["id": .string(id), "type": .string(type)]
            if let name { object["name"] = .string(name) }
            return object
        }

        var described: String { "\(name.map { "\"\($0)\" " } ?? "")(\(type), \(id))" }
    }

    public let journey: String
    /// The node whose outcome reached the failure, and that outcome; nil when the failure came
    /// without one (a loop cut off).
    public let node: NodeRef?
    public let outcome: String?
    /// The last reason a node gave during the journey, and which node gave it.
    public let reason: Reason?
    public let reasonNode: NodeRef?
    /// The username the journey had collected, if any.
    public let username: String?
    /// When it failed, on the daemon's clock (Unix seconds).
    public let at: Double

    public var json: JSONObject {
        var object: JSONObject = ["journey": .string(journey), "at": .double(at)]
        object["node"] = node.map { .object($0.json) } ?? .null
        object["outcome"] = outcome.map(JSONValue.string) ?? .null
        if let reason {
            var described: JSONObject = ["code": .string(reason.code), "message": .string(reason.message)]
            for field in reason.fields.members { described[field.key] = field.value }
            if let reasonNode { described["node"] = .object(reasonNode.json) }
            object["reason"] = .object(described)
        } else {
            object["reason"] = .null
        }
        object["username"] = username.map(JSONValue.string) ?? .null
        return object
    }

    /// One line for the log and the trace.
    public var logLine: String {
        var line = "journey \(journey) failed"
        if let node { line += " at node \(node.described)" }
        if let outcome { line += ", outcome \(outcome)" }
        if let reason {
            line += ": \(reason.message) [\(reason.code)]"
            if let reasonNode, reasonNode != node { line += " (from node \(reasonNode.described))" }
        } else {
            line += ": no node gave a reason"
        }
        return line
    }
}
