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
        let user = DirectoryUser(
            id: random.uuid().lowercased(), username: username,
            password: PasswordHash.make(password, salt: random.bytes(16), iterations: iterations),
            attributes: attributes)
        usersByKey[key] = user
        return user
    }

    /// Changes a stored user in place; false when there is no such user.
    @discardableResult
    public func update(username: String, _ change: (inout DirectoryUser) -> Void) -> Bool {
        let key = username.lowercased()
        guard var user = usersByKey[key] else { return false }
        change(&user)
        usersByKey[key] = user
        return true
    }

    public func find(username: String) -> DirectoryUser? { usersByKey[username.lowercased()] }

    public func find(id: String) -> DirectoryUser? { usersByKey.values.first { $0.id == id } }

    public var count: Int { usersByKey.count }

    public func contains(username: String) -> Bool { usersByKey[username.lowercased()] != nil }

    /// The user when the password is right; nil for an unknown user or a wrong password.
    public func verify(username: String, password: String) -> DirectoryUser? {
        guard let user = find(username: username), user.password.matches(password) else { return nil }
        return user
    }
}

// MARK: saved state

extension UserDirectory {
    /// Users in username order, hashes as base64url: the clear password is never written.
    var snapshot: JSONValue {
        .array(usersByKey.keys.sorted().map { key in
            let user = usersByKey[key]!
            return [
                "id": .string(user.id), "username": .string(user.username),
                "password": [
                    "salt": .string(Base64URL.encode(user.password.salt)), "iterations": .int(Int64(user.password.iterations)),
                    "digest": .string(Base64URL.encode(user.password.digest)),
                ],
                "attributes": .object(user.attributes),
                "lock": user.lock.map { lock -> JSONValue in ["until": lock.until.map { JSONValue.double($0) } ?? .null] } ?? .null,
                "counters": .object(JSONObject(user.counters.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) })),
            ]
        })
    }

    func restore(_ readers: [StateReader]) throws(StateError) {
        var restored: [String: DirectoryUser] = [:]
        for reader in readers {
            let password = try reader.reader("password")
            var user = DirectoryUser(
                id: try reader.string("id"), username: try reader.string("username"),
                password: PasswordHash(
                    salt: try password.bytes("salt"), iterations: Int(try password.int("iterations")),
                    digest: try password.bytes("digest")),
                attributes: try reader.objectValue("attributes"))
            if reader.has("lock") {
                let lock = try reader.reader("lock")
                user.lock = DirectoryUser.AccountLock(until: lock.has("until") ? try lock.double("until") : nil)
            }
            if reader.has("counters") {
                for member in try reader.objectValue("counters").members {
                    guard let count = member.value.intValue else { throw StateError("\(reader.path).counters.\(member.key) must be an integer") }
                    user.counters[member.key] = Int(count)
                }
            }
            restored[user.username.lowercased()] = user
        }
        usersByKey = restored
    }
}

