import AuthBridgeCore
import IdentityServer

/// AuthBridge's seed format (docs/seed.md): users with their passwords, attributes, KBA answers,
/// lockout and devices; SSO sessions; OAuth clients. `--import`, `emulator.import` and the admin
/// API read it; `emulator.export` and `authbridge export` write it. It is a user-facing format of
/// its own, not the `--state-dir` journal: dates are ISO 8601 text, a password is given in clear
/// or as a PBKDF2-HMAC-SHA256 hash, and every member it does not define is refused.
///
/// Reading is pure: a document is checked in full here, and only a valid one is applied
/// (`EmbeddedAM.importSeed`), in one unit, so nothing is ever half-loaded.
public struct SeedDocument: Sendable {
    public static let format = "authbridge-seed"
    public static let version: Int64 = 1
    /// The largest document read (a file is refused from its size, before it is read).
    public static let maxBytes = 32 * 1024 * 1024

    public enum Password: Equatable, Sendable {
        case clear(String)
        case hash(PasswordHash)
    }

    public struct User: Equatable, Sendable {
        public var username: String
        /// The user's id; nil lets the server keep the id of a user of that name, or make one.
        public var id: String?
        public var password: Password
        public var attributes: JSONObject
        /// KBA questions and answers in clear, hashed as the KBA Create node stores them.
        public var kba: [KBA]
        public var lock: DirectoryUser.AccountLock?
        public var counters: [String: Int]
        public var loginCount: Int
        public var devices: UserDevices
    }

    public struct KBA: Equatable, Sendable {
        public var question: String
        public var answer: String
    }

    public struct Session: Equatable, Sendable {
        public var token: String
        public var username: String
        /// Nil: the time of the import.
        public var authTime: Double?
        public var lastAccess: Double?
        public var opsId: String?
        public var journeys: [String]
    }

    public var users: [User] = []
    public var sessions: [Session] = []
    public var clients: [OAuthClientRegistry.Client] = []

    public init() {}

    /// Reads a document from bytes: refused past `maxBytes`, when not JSON, or when anything in
    /// it is wrong (the first fault, by its JSON path).
    public static func read(_ bytes: [UInt8], minimumIterations: Int) throws(SeedError) -> SeedDocument {
        guard bytes.count <= maxBytes else {
            throw SeedError(path: "", reason: "the document is larger than \(maxBytes) bytes")
        }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw SeedError(path: "", reason: "not JSON: \(error)")
        }
        return try SeedDocument(json: json, minimumIterations: minimumIterations)
    }

    /// Reads a parsed document. `minimumIterations` is the directory's own PBKDF2 count: a hash
    /// with fewer rounds is weak and refused.
    public init(json: JSONValue, minimumIterations: Int) throws(SeedError) {
        let root = try SeedReader(json, at: JSONPath())
        try Self.only(["format", "version", "users", "sessions", "clients"], in: root)
        if let format = try root.optionalString("format"), format != Self.format {
            throw SeedError(path: "format", reason: "must be \(Self.format), found \(format)")
        }
        let version = try root.int("version")
        guard version == Self.version else {
            throw SeedError(path: "version", reason: "\(version) is not supported (this authbridge reads version 1)")
        }
        var names: [String: String] = [:]
        var ids: [String: String] = [:]
        for reader in try root["users"].optionalReaders() ?? [] {
            let user = try Self.user(reader, minimumIterations: minimumIterations)
            let key = user.username.lowercased()
            if let first = names[key] {
                throw SeedError(
                    path: "\(reader.path).username",
                    reason: "\(user.username) is already the name of \(first) (names are matched case-insensitively)")
            }
            if let id = user.id {
                if let first = ids[id] {
                    throw SeedError(path: "\(reader.path).id", reason: "\(id) is already the id of \(first)")
                }
                ids[id] = reader.path
            }
            names[key] = reader.path
            users.append(user)
        }
        var tokens: [String: String] = [:]
        for reader in try root["sessions"].optionalReaders() ?? [] {
            let session = try Self.session(reader)
            if let first = tokens[session.token] {
                throw SeedError(path: "\(reader.path).token", reason: "already the token of \(first)")
            }
            tokens[session.token] = reader.path
            sessions.append(session)
        }
        var clientIds: [String: String] = [:]
        for reader in try root["clients"].optionalReaders() ?? [] {
            let client = try Self.client(reader)
            if let first = clientIds[client.clientId] {
                throw SeedError(
                    path: "\(reader.path).clientId", reason: "\(client.clientId) is already the id of \(first)")
            }
            clientIds[client.clientId] = reader.path
            clients.append(client)
        }
    }

    // MARK: members

    private static func user(_ reader: SeedReader, minimumIterations: Int) throws(SeedError) -> User {
        try only(
            [
                "username", "id", "password", "passwordHash", "attributes", "kba", "lock", "counters", "loginCount",
                "devices",
            ], in: reader)
        let username = try nonEmpty(reader, "username")
        let id = try reader.optionalString("id")
        if let id, id.isEmpty { throw SeedError(path: "\(reader.path).id", reason: "must not be empty") }
        let password: Password
        switch (reader.has("password"), reader.has("passwordHash")) {
        case (true, false): password = .clear(try nonEmpty(reader, "password"))
        case (false, true):
            password = .hash(try SeedPasswordHash.read(reader["passwordHash"], minimum: minimumIterations))
        case (true, true):
            throw SeedError(path: "\(reader.path).passwordHash", reason: "give password or passwordHash, not both")
        case (false, false):
            throw SeedError(path: "\(reader.path).password", reason: "missing (give password or passwordHash)")
        }
        let attributes = try reader["attributes"].optionalObject() ?? [:]
        var kba: [KBA] = []
        for entry in try reader["kba"].optionalReaders() ?? [] {
            try only(["question", "answer"], in: entry)
            kba.append(KBA(question: try nonEmpty(entry, "question"), answer: try nonEmpty(entry, "answer")))
        }
        if !kba.isEmpty, attributes["kbaInfo"] != nil {
            throw SeedError(path: "\(reader.path).kba", reason: "give kba or attributes.kbaInfo, not both")
        }
        var lock: DirectoryUser.AccountLock?
        if let lockReader = try reader["lock"].optionalReader() {
            try only(["until"], in: lockReader)
            lock = DirectoryUser.AccountLock(until: try date(lockReader["until"], optional: true))
        }
        var counters: [String: Int] = [:]
        if let counterReader = try reader["counters"].optionalReader() {
            for name in counterReader.object.keys { counters[name] = try count(counterReader[name]) }
        }
        let loginCount = reader.has("loginCount") ? try count(reader["loginCount"]) : 0
        let devices = try reader["devices"].optionalReader().map { devices throws(SeedError) in
            try SeedDevices.read(devices)
        }
        return User(
            username: username, id: id, password: password, attributes: attributes, kba: kba, lock: lock,
            counters: counters, loginCount: loginCount, devices: devices ?? UserDevices())
    }

    private static func session(_ reader: SeedReader) throws(SeedError) -> Session {
        try only(["token", "username", "authTime", "lastAccess", "opsId", "journeys"], in: reader)
        let token = try nonEmpty(reader, "token")
        // The token travels as a cookie value: what a cookie cannot carry is refused here.
        guard token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") })
        else {
            throw SeedError(
                path: "\(reader.path).token", reason: "must be printable ASCII without spaces, commas or semicolons")
        }
        let authTime = try date(reader["authTime"], optional: true)
        let lastAccess = try date(reader["lastAccess"], optional: true)
        if let authTime, let lastAccess, lastAccess < authTime {
            throw SeedError(path: "\(reader.path).lastAccess", reason: "is before authTime")
        }
        let opsId = try reader.optionalString("opsId")
        if let opsId, opsId.isEmpty { throw SeedError(path: "\(reader.path).opsId", reason: "must not be empty") }
        return Session(
            token: token, username: try nonEmpty(reader, "username"), authTime: authTime, lastAccess: lastAccess,
            opsId: opsId,
            journeys: Array(
                Set(
                    try reader["journeys"].optionalElements().map { list throws(SeedError) in
                        var names: [String] = []
                        for element in list { names.append(try element.string()) }
                        return names
                    } ?? [])
            ).sorted())
    }

    private static func client(_ reader: SeedReader) throws(SeedError) -> OAuthClientRegistry.Client {
        try only(
            ["clientId", "redirectUris", "postLogoutRedirectUris", "scopes", "idTokenSigningAlgorithm"], in: reader)
        func uris(_ key: String) throws(SeedError) -> [String] {
            guard reader.has(key) else { return [] }
            let list = try reader.strings(key)
            for (index, uri) in list.enumerated() where !uri.contains("://") && !uri.contains(":/") {
                throw SeedError(path: "\(reader.path).\(key)[\(index)]", reason: "\(uri) is not an absolute URI")
            }
            return list
        }
        return OAuthClientRegistry.Client(
            clientId: try nonEmpty(reader, "clientId"), redirectUris: try uris("redirectUris"),
            postLogoutRedirectUris: try uris("postLogoutRedirectUris"),
            scopes: reader.has("scopes") ? try reader.strings("scopes") : ["openid"],
            idTokenSigningAlgorithm: try signingAlgorithm(reader))
    }

    /// AM's client setting "ID Token Signing Algorithm": RS256 unless the client names another.
    private static func signingAlgorithm(_ reader: SeedReader) throws(SeedError) -> TokenSigningAlgorithm {
        guard reader.has("idTokenSigningAlgorithm") else { return .rs256 }
        let name = try reader.string("idTokenSigningAlgorithm")
        guard let algorithm = TokenSigningAlgorithm(rawValue: name) else {
            let known = TokenSigningAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
            throw SeedError(
                path: "\(reader.path).idTokenSigningAlgorithm", reason: "\(name) is not one of \(known)")
        }
        return algorithm
    }

    // MARK: shared checks

    /// Refuses any member not in `known`, naming it.
    static func only(_ known: [String], in reader: SeedReader) throws(SeedError) {
        if let stray = reader.object.keys.first(where: { !known.contains($0) }) {
            throw SeedError(
                path: reader.location.appending(stray).description,
                reason: "unknown field (known here: \(known.joined(separator: ", ")))")
        }
    }

    static func nonEmpty(_ reader: SeedReader, _ key: String) throws(SeedError) -> String {
        let text = try reader.string(key)
        guard !text.isEmpty else { throw SeedError(path: "\(reader.path).\(key)", reason: "must not be empty") }
        return text
    }

    /// A date as ISO 8601 UTC text (`2026-01-01T00:00:00Z`, milliseconds optional).
    static func date(_ field: JSONField<SeedError>, optional: Bool) throws(SeedError) -> Double? {
        guard let value = field.present else {
            if optional { return nil }
            throw SeedError(path: field.location.description, reason: "missing")
        }
        guard case .string(let text) = value, let seconds = ISO8601.parse(text) else {
            throw SeedError(
                path: field.location.description,
                reason: "not a date: expected ISO 8601 UTC text such as 2026-01-01T00:00:00Z (years 1970 to 9999)")
        }
        return seconds
    }

    private static func count(_ field: JSONField<SeedError>) throws(SeedError) -> Int {
        let value = try field.int()
        guard value >= 0, value <= Int64(Int32.max) else {
            throw SeedError(path: field.location.description, reason: "\(value) is not from 0 to \(Int32.max)")
        }
        return Int(value)
    }
}

typealias SeedReader = JSONReader<SeedError>

/// What is wrong with a seed document: where (its JSON path, `users[2].passwordHash.iterations`;
/// "" for the document itself) and why.
public struct SeedError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

extension SeedError: JSONReadFailure {
    public init(_ error: JSONReadError) {
        let orNull = error.nullAllowed ? " or null" : ""
        let reason: String
        switch error.found {
        case .missing: reason = "missing"
        case .kind(let kind): reason = "expected \(error.expected.phrase)\(orNull), found \(kind.rawValue)"
        case .value(let value): reason = "expected \(error.expected.phrase)\(orNull), found \(value.kind.rawValue)"
        }
        self.init(path: error.path.description, reason: reason)
    }
}
