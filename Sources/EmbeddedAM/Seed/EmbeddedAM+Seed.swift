import AuthBridgeCore

/// The seed format in and out of the server (docs/seed.md).
extension EmbeddedAM {
    /// What an import loaded.
    public struct SeedSummary: Equatable, Sendable {
        public var users: Int
        public var sessions: Int
        public var clients: Int
    }

    /// Loads a checked document: each user replaces the directory's user of that name (keeping
    /// its id unless the document gives one), each session the session of that token, each client
    /// the client of that id. What only the directory can tell (an id another user holds, a session
    /// naming nobody) is checked for the whole document before anything changes.
    public func importSeed(_ document: SeedDocument) throws(SeedError) -> SeedSummary {
        var prepared: [DirectoryUser] = []
        var idsInUse = Set<String>()
        for (index, seed) in document.users.enumerated() {
            let existing = users.find(username: seed.username)
            if let id = seed.id, let holder = users.find(id: id),
                holder.username.lowercased() != seed.username.lowercased()
            {
                throw SeedError(
                    path: "users[\(index)].id", reason: "\(id) is already the id of the user \(holder.username)")
            }
            var id = seed.id ?? existing?.id ?? users.newId()
            while seed.id == nil && idsInUse.contains(id) { id = users.newId() }
            idsInUse.insert(id)
            var attributes = seed.attributes
            if !seed.kba.isEmpty {
                attributes["kbaInfo"] = .array(
                    seed.kba.map {
                        KbaAnswers.hashed(
                            ["question": .string($0.question), "answer": .string($0.answer)], random: random)
                    })
            }
            let password: PasswordHash
            switch seed.password {
            case .clear(let text):
                password = PasswordHash.make(text, salt: random.bytes(16), iterations: config.passwordHashIterations)
            case .hash(let hash): password = hash
            }
            var user = DirectoryUser(id: id, username: seed.username, password: password, attributes: attributes)
            user.lock = seed.lock
            user.counters = seed.counters
            user.loginCount = seed.loginCount
            user.devices = seed.devices
            prepared.append(user)
        }
        var sessionUsers: [DirectoryUser] = []
        for (index, session) in document.sessions.enumerated() {
            let key = session.username.lowercased()
            guard let user = prepared.first(where: { $0.username.lowercased() == key }) ?? users.find(username: key)
            else {
                throw SeedError(
                    path: "sessions[\(index)].username",
                    reason: "no user named \(session.username) in the document or the directory")
            }
            sessionUsers.append(user)
        }
        // Checked in full: from here on nothing fails.
        for user in prepared { users.put(user) }
        for (session, user) in zip(document.sessions, sessionUsers) {
            let authTime = session.authTime ?? clock.now
            sessions.put(
                SSOSession(
                    tokenId: session.token, userId: user.id, username: user.username, authTime: authTime,
                    lastAccess: session.lastAccess ?? authTime,
                    opsId: session.opsId ?? Base64URL.encode(random.bytes(18)),
                    journeys: session.journeys))
        }
        for client in document.clients { clients.put(client) }
        return SeedSummary(users: prepared.count, sessions: document.sessions.count, clients: document.clients.count)
    }

    /// Everything the format holds, as a document an import reads back: users (their hashes,
    /// never a clear password), live sessions, every client.
    public func exportSeed() -> JSONValue {
        [
            "format": .string(SeedDocument.format), "version": .int(SeedDocument.version),
            "users": .array(users.all.map { .object(Self.seedJSON($0)) }),
            "sessions": .array(
                sessions.all.map { session in
                    [
                        "token": .string(session.tokenId), "username": .string(session.username),
                        "authTime": .string(ISO8601.formatMillis(session.authTime)),
                        "lastAccess": .string(ISO8601.formatMillis(session.lastAccess)),
                        "opsId": .string(session.opsId), "journeys": .array(session.journeys.map { .string($0) }),
                    ]
                }),
            "clients": .array(clients.all.map { OAuthClientRegistry.stateJSON($0) }),
        ]
    }

    /// One user as the seed writes it.
    public static func seedJSON(_ user: DirectoryUser) -> JSONObject {
        var json: JSONObject = [
            "username": .string(user.username), "id": .string(user.id),
            "passwordHash": SeedPasswordHash.json(user.password), "attributes": .object(user.attributes),
        ]
        if let lock = user.lock {
            json["lock"] = ["until": lock.until.map { .string(ISO8601.formatMillis($0)) } ?? .null]
        }
        if !user.counters.isEmpty {
            json["counters"] = .object(
                JSONObject(user.counters.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) }))
        }
        if user.loginCount > 0 { json["loginCount"] = .int(Int64(user.loginCount)) }
        if !user.devices.isEmpty { json["devices"] = SeedDevices.json(user.devices) }
        return json
    }

    /// Deletes a user with their SSO sessions and OAuth grants (the admin API); nil when there is
    /// no such user.
    public func deleteUser(username: String) -> DirectoryUser? {
        guard let user = users.find(username: username) else { return nil }
        _ = revokeSessions(userId: user.id)
        return users.remove(username: username)
    }
}

extension EmbeddedAM {
    /// Adds devices to a user (the admin API): `devices` in the seed's form of a user's
    /// `devices`, checked in full first; a uuid the user already has is refused.
    public func addSeedDevices(username: String, _ devices: JSONValue) throws(SeedError) -> UserDevices {
        guard let user = users.find(username: username) else {
            throw SeedError(path: "", reason: "no user named \(username)")
        }
        let added = try SeedDevices.read(try SeedReader(devices, at: JSONPath()))
        var merged = user.devices
        func append<P: DeviceProfile>(_ list: [P], to existing: inout [P]) throws(SeedError) {
            for device in list {
                guard !existing.contains(where: { $0.uuid == device.uuid }) else {
                    throw SeedError(
                        path: "\(P.kind.rawValue)", reason: "\(device.uuid) is already one of the user's devices")
                }
                existing.append(device)
            }
        }
        try append(added.oath, to: &merged.oath)
        try append(added.push, to: &merged.push)
        try append(added.webAuthn, to: &merged.webAuthn)
        try append(added.binding, to: &merged.binding)
        for profile in added.profiles {
            guard !merged.profiles.contains(where: { $0.uuid == profile.uuid }) else {
                throw SeedError(
                    path: UserDevices.profilesKey, reason: "\(profile.uuid) is already one of the user's profiles")
            }
            merged.profiles.append(profile)
        }
        users.update(username: username) { $0.devices = merged }
        return merged
    }

    /// A user's devices in the seed's form (secrets included: the admin API is served on
    /// loopback only).
    public static func seedJSON(_ devices: UserDevices) -> JSONValue { SeedDevices.json(devices) }
}
