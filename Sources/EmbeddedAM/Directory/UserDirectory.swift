import AuthBridgeCore

/// A user of the embedded identity store. Attributes use AM/IDM names (`givenName`, `sn`, `mail`).
public struct DirectoryUser: Equatable, Sendable {
    public var id: String
    public var username: String
    public var password: PasswordHash
    public var attributes: JSONObject
    /// Set by an Account Lockout node or the lockout mode; `until` nil means until unlocked.
    public var lock: AccountLock?
    /// Failed-attempt counts kept on the profile (AM's `retryLimitNodeCount`), by counter name.
    public var counters: [String: Int] = [:]
    /// Successful logins counted by AM's Increment Login Count node (read by Login Count Decision).
    public var loginCount = 0
    /// The OATH, push, WebAuthn and bound devices registered to the user (`Directory/Devices/`).
    public var devices = UserDevices()

    public struct AccountLock: Equatable, Sendable {
        public var until: Double?

        public init(until: Double?) { self.until = until }

        public func holds(at now: Double) -> Bool { until.map { now < $0 } ?? true }
    }

    public var givenName: String? { attributes["givenName"]?.stringValue }
    public var familyName: String? { attributes["sn"]?.stringValue }
    public var email: String? { attributes["mail"]?.stringValue }
}

/// A salted PBKDF2-HMAC-SHA256 hash. The clear password is never kept.
public struct PasswordHash: Equatable, Sendable {
    public var salt: [UInt8]
    public var iterations: Int
    public var digest: [UInt8]

    public static func make(_ password: String, salt: [UInt8], iterations: Int) -> PasswordHash {
        PasswordHash(
            salt: salt, iterations: iterations,
            digest: HMACSHA256.pbkdf2(password: Array(password.utf8), salt: salt, iterations: iterations, length: 32))
    }

    public func matches(_ password: String) -> Bool {
        let candidate = HMACSHA256.pbkdf2(
            password: Array(password.utf8), salt: salt, iterations: iterations, length: digest.count)
        return HMACSHA256.equal(candidate, digest)
    }
}

/// The user store. Usernames are matched case-insensitively, as AM's data store does.
public final class UserDirectory {
    fileprivate var usersByKey: [String: DirectoryUser] = [:]
    /// Each user's key by id: lookups by id (sessions, grants, tokens name users by id) are not a scan.
    fileprivate var keysById: [String: String] = [:]
    /// Users changed since the state was last saved (`--state-dir` writes only these); recorded
    /// only when something saves them, or the set would grow with every change.
    fileprivate var changed: Set<String> = []
    var tracksChanges = false
    private let random: RandomSource
    private let iterations: Int

    public init(random: RandomSource, iterations: Int) {
        self.random = random
        self.iterations = iterations
    }

    public enum AddError: Error, Equatable { case duplicate(String), emptyUsername, emptyPassword }

    @discardableResult
    public func add(username: String, password: String, attributes: JSONObject) throws(AddError) -> DirectoryUser {
        guard !username.isEmpty else { throw .emptyUsername }
        guard !password.isEmpty else { throw .emptyPassword }
        let key = username.lowercased()
        guard usersByKey[key] == nil else { throw .duplicate(username) }
        // Ids name users in sessions and grants: one is never handed out twice, whatever mix of
        // seeded and unseeded runs made this directory.
        var id = random.uuid().lowercased()
        while keysById[id] != nil { id = random.uuid().lowercased() }
        let user = DirectoryUser(
            id: id, username: username,
            password: PasswordHash.make(password, salt: random.bytes(16), iterations: iterations),
            attributes: attributes)
        usersByKey[key] = user
        keysById[user.id] = key
        if tracksChanges { changed.insert(key) }
        return user
    }

    /// Changes a stored user in place; false when there is no such user.
    @discardableResult
    public func update(username: String, _ change: (inout DirectoryUser) -> Void) -> Bool {
        let key = username.lowercased()
        guard var user = usersByKey[key] else { return false }
        change(&user)
        usersByKey[key] = user
        if tracksChanges { changed.insert(key) }
        return true
    }

    public func find(username: String) -> DirectoryUser? { usersByKey[username.lowercased()] }

    /// Every user, in the order of their case-folded names.
    public var all: [DirectoryUser] { usersByKey.keys.sorted().compactMap { usersByKey[$0] } }

    /// A fresh id no user has, for a user an import names without one.
    func newId() -> String {
        var id = random.uuid().lowercased()
        while keysById[id] != nil { id = random.uuid().lowercased() }
        return id
    }

    /// Stores a user as given (an import), replacing the user of the same name; the caller has
    /// checked that no other user has its id.
    func put(_ user: DirectoryUser) {
        let key = user.username.lowercased()
        if let old = usersByKey[key], keysById[old.id] == key { keysById[old.id] = nil }
        usersByKey[key] = user
        keysById[user.id] = key
        if tracksChanges { changed.insert(key) }
    }

    /// Removes a user; nil when there is no such user.
    func remove(username: String) -> DirectoryUser? {
        let key = username.lowercased()
        guard let user = usersByKey.removeValue(forKey: key) else { return nil }
        keysById[user.id] = nil
        if tracksChanges { changed.insert(key) }
        return user
    }

    public func find(id: String) -> DirectoryUser? { keysById[id].flatMap { usersByKey[$0] } }

    public var count: Int { usersByKey.count }

    public func contains(username: String) -> Bool { usersByKey[username.lowercased()] != nil }

    /// The user whose attribute (an IDM name, `mail`, `/` for nested) has this value, matched
    /// case-insensitively as IDM's default queries do; the first in username order when several do.
    public func find(attribute: String, value: String) -> DirectoryUser? {
        if attribute == "userName" { return find(username: value) }
        guard !value.isEmpty else { return nil }
        let path = attribute.split(separator: "/").joined(separator: ".")
        let wanted = value.lowercased()
        return usersByKey.keys.sorted().lazy.compactMap { self.usersByKey[$0] }.first { user in
            user.attributes.value(path: path)?.stringValue?.lowercased() == wanted
        }
    }

    /// The user whose `aliasList` (AM's linked social identities, `<provider>-<subject>`) holds
    /// `alias`; the first in username order when several do.
    public func find(aliasListContaining alias: String) -> DirectoryUser? {
        usersByKey.keys.sorted().lazy.compactMap { self.usersByKey[$0] }.first { user in
            user.attributes["aliasList"]?.arrayValue?.contains(.string(alias)) == true
        }
    }

    /// Replaces a user's password (a Patch Object carrying one); false when there is no such user.
    @discardableResult
    public func setPassword(username: String, to password: String) -> Bool {
        guard !password.isEmpty else { return false }
        let hash = PasswordHash.make(password, salt: random.bytes(16), iterations: iterations)
        return update(username: username) { $0.password = hash }
    }

    /// The user when the password is right; nil for an unknown user or a wrong password.
    public func verify(username: String, password: String) -> DirectoryUser? {
        guard let user = find(username: username), user.password.matches(password) else { return nil }
        return user
    }
}

// MARK: saved state

extension UserDirectory {
    /// Every user, keyed by their case-folded name; hashes as base64url: the clear password is
    /// never written.
    var stateEntries: [StateEntry] {
        usersByKey.keys.sorted().map { StateEntry([$0], Self.stateJSON(usersByKey[$0]!)) }
    }

    /// The users added, changed or removed since the last call.
    func takeStateEdits() -> [StateEdit] {
        defer { changed.removeAll() }
        return changed.sorted().map { StateEdit([$0], usersByKey[$0].map(Self.stateJSON)) }
    }

    static func stateJSON(_ user: DirectoryUser) -> JSONValue {
        var entry: JSONObject = [
            "id": .string(user.id), "username": .string(user.username),
            "password": [
                "salt": .string(Base64URL.encode(user.password.salt)),
                "iterations": .int(Int64(user.password.iterations)),
                "digest": .string(Base64URL.encode(user.password.digest)),
            ],
            "attributes": .object(user.attributes),
            "lock": user.lock.map { lock -> JSONValue in ["until": lock.until.map { JSONValue.double($0) } ?? .null] }
                ?? .null,
            "counters": .object(
                JSONObject(user.counters.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })),
        ]
        // Written only once a login was counted, so state without one stays as it was.
        if user.loginCount > 0 { entry["loginCount"] = .int(Int64(user.loginCount)) }
        if !user.devices.isEmpty { entry["devices"] = .object(user.devices.stateJSON) }
        return .object(entry)
    }

    /// PBKDF2 rounds a saved hash may claim: 0 or a negative count cannot be checked, and a
    /// huge one would stall every login.
    static let iterationRange: ClosedRange<Int64> = 1...1_000_000

    func restore(_ readers: [StateReader]) throws(StateError) {
        var restored: [String: DirectoryUser] = [:]
        var byId: [String: String] = [:]
        var pathByKey: [String: String] = [:]
        for reader in readers {
            let password = try reader.reader("password")
            let iterations = try password.int("iterations")
            guard Self.iterationRange.contains(iterations) else {
                throw StateError(
                    "\(password.path).iterations: \(iterations) is not from 1 to \(Self.iterationRange.upperBound)")
            }
            let salt = try password.bytes("salt")
            guard (1...1024).contains(salt.count) else {
                throw StateError("\(password.path).salt: expected 1 to 1024 bytes")
            }
            let digest = try password.bytes("digest")
            guard digest.count == 32 else {
                throw StateError(
                    "\(password.path).digest: expected 32 bytes (PBKDF2-HMAC-SHA256), found \(digest.count)")
            }
            var user = DirectoryUser(
                id: try reader.string("id"), username: try reader.string("username"),
                password: PasswordHash(salt: salt, iterations: Int(iterations), digest: digest),
                attributes: try reader.objectValue("attributes"))
            guard !user.username.isEmpty, !user.id.isEmpty else {
                throw StateError("\(reader.path): username and id must not be empty")
            }
            if reader.has("lock") {
                let lock = try reader.reader("lock")
                user.lock = DirectoryUser.AccountLock(until: lock.has("until") ? try lock.time("until") : nil)
            }
            if reader.has("counters") {
                let counters = try reader.reader("counters")
                for name in counters.object.members.map(\.key) {
                    let count = try counters.int(name)
                    guard count >= 0, count <= Int64(Int32.max) else {
                        throw StateError("\(counters.path).\(name): \(count) is not from 0 to \(Int32.max)")
                    }
                    user.counters[name] = Int(count)
                }
            }
            // Written only once a login was counted: older state files have no such key.
            if reader.has("loginCount") {
                let count = try reader.int("loginCount")
                guard count >= 0, count <= Int64(Int32.max) else {
                    throw StateError("\(reader.path).loginCount must be a non-negative integer")
                }
                user.loginCount = Int(count)
            }
            if let devices = try reader["devices"].optionalReader() {
                user.devices = try UserDevices(state: devices)
            }
            WebAuthnDeviceProfile.migrateLegacyAttribute(of: &user)
            let key = user.username.lowercased()
            if let first = pathByKey[key] {
                throw StateError(
                    "\(reader.path).username: \(user.username) is already the name of \(first) (names are matched case-insensitively)"
                )
            }
            guard byId[user.id] == nil else {
                throw StateError("\(reader.path).id: \(user.id) is already the id of another user")
            }
            pathByKey[key] = reader.path
            byId[user.id] = key
            restored[key] = user
        }
        usersByKey = restored
        keysById = byId
        changed.removeAll()
    }
}
