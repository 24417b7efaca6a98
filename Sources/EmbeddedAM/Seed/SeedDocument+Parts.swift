import AuthBridgeCore

/// A password hash in the seed format: the directory's own form, PBKDF2-HMAC-SHA256 with its
/// salt and rounds (`UserDirectory`'s `PasswordHash`). Anything weaker is refused by name: an
/// MD5 or SHA-1 digest, an unsalted or short-salted hash, fewer rounds than the directory uses.
enum SeedPasswordHash {
    static let algorithm = "PBKDF2-HMAC-SHA256"
    /// Salts shorter than this are refused (NIST SP 800-132 asks for at least 128 bits).
    static let minimumSaltBytes = 16
    /// Rounds beyond this would stall every login of the user.
    static let maximumIterations: Int64 = 1_000_000
    /// Names of schemes refused as weak, as people write them.
    private static let weak = [
        "md5", "sha1", "sha-1", "sha256", "sha-256", "sha512", "sha-512", "crypt", "des", "ssha", "smd5", "plain",
        "bcrypt", "md4", "ntlm",
    ]

    static func read(_ field: JSONField<SeedError>, minimum: Int) throws(SeedError) -> PasswordHash {
        let path = field.location.description
        if case .string? = field.present {
            throw SeedError(
                path: path,
                reason:
                    "weak or unknown hash: give {algorithm: \(algorithm), iterations, salt, hash} or the clear password"
            )
        }
        let reader = try field.reader()
        try SeedDocument.only(["algorithm", "iterations", "salt", "hash"], in: reader)
        let name = try reader.string("algorithm")
        guard name == algorithm else {
            let weakName = weak.contains(name.lowercased())
            throw SeedError(
                path: "\(path).algorithm",
                reason: "\(weakName ? "weak hash" : "unknown algorithm") \(name): only \(algorithm) is accepted")
        }
        let iterations = try reader.int("iterations")
        guard iterations >= Int64(minimum) else {
            throw SeedError(
                path: "\(path).iterations",
                reason: "weak hash: \(iterations) iterations, at least \(minimum) are needed")
        }
        guard iterations <= maximumIterations else {
            throw SeedError(path: "\(path).iterations", reason: "\(iterations) is more than \(maximumIterations)")
        }
        guard reader.has("salt") else { throw SeedError(path: "\(path).salt", reason: "weak hash: unsalted") }
        let salt = try reader.bytes("salt")
        guard salt.count >= minimumSaltBytes, salt.count <= 1024 else {
            throw SeedError(
                path: "\(path).salt",
                reason: "weak hash: the salt is \(salt.count) bytes; \(minimumSaltBytes) to 1024 are needed")
        }
        let digest = try reader.bytes("hash")
        guard digest.count == 32 else {
            throw SeedError(
                path: "\(path).hash", reason: "expected 32 bytes (PBKDF2-HMAC-SHA256), found \(digest.count)")
        }
        return PasswordHash(salt: salt, iterations: Int(iterations), digest: digest)
    }

    static func json(_ hash: PasswordHash) -> JSONValue {
        [
            "algorithm": .string(algorithm), "iterations": .int(Int64(hash.iterations)),
            "salt": .string(Base64URL.encode(hash.salt)), "hash": .string(Base64URL.encode(hash.digest)),
        ]
    }
}

/// A user's devices in the seed format: each kind as the directory keeps it (`Directory/Devices/`,
/// the members of AM's device settings, secrets as base64url), with its dates as ISO 8601 text.
enum SeedDevices {
    static let dateMembers = ["createdDate", "lastAccessDate", "lastSelectedDate"]
    static let kinds = DeviceKind.allCases.map(\.rawValue) + [UserDevices.profilesKey]

    static func read(_ reader: SeedReader) throws(SeedError) -> UserDevices {
        try SeedDocument.only(kinds, in: reader)
        var devices = UserDevices()
        func list<P: Equatable>(
            _ key: String, _ make: (StateReader) throws(StateError) -> P, json: (P) -> JSONValue, uuid: (P) -> String
        ) throws(SeedError) -> [P] {
            var out: [P] = []
            for entry in try reader[key].optionalReaders() ?? [] {
                let device = try parse(entry, make, json: json)
                if out.contains(where: { uuid($0) == uuid(device) }) {
                    throw SeedError(path: "\(entry.path).uuid", reason: "\(uuid(device)) is already another device's")
                }
                out.append(device)
            }
            return out
        }
        devices.oath = try list("oath", OathDeviceProfile.init(state:), json: \.stateJSON, uuid: \.uuid)
        devices.push = try list("push", PushDeviceProfile.init(state:), json: \.stateJSON, uuid: \.uuid)
        devices.webAuthn = try list("webauthn", WebAuthnDeviceProfile.init(state:), json: \.stateJSON, uuid: \.uuid)
        devices.binding = try list("binding", BoundDeviceProfile.init(state:), json: \.stateJSON, uuid: \.uuid)
        devices.profiles = try list(
            UserDevices.profilesKey, SavedDeviceProfile.init(state:), json: \.stateJSON, uuid: \.uuid)
        return devices
    }

    /// One device: its dates turned to the directory's seconds, read by its kind's own reader,
    /// then any member that reader did not keep refused as unknown (what the kind writes back is
    /// what it reads, so its own form is the list of known members).
    private static func parse<P>(
        _ entry: SeedReader, _ make: (StateReader) throws(StateError) -> P, json: (P) -> JSONValue
    ) throws(SeedError) -> P {
        var members = entry.object
        for key in dateMembers where entry.object[key] != nil {
            guard let seconds = try SeedDocument.date(entry[key], optional: true) else { continue }
            members[key] = .double(seconds)
        }
        let device: P
        do {
            device = try make(StateReader(object: members, at: entry.location))
        } catch {
            // The kind's reader names the member in its message: keep it whole as the reason.
            throw SeedError(path: entry.path, reason: error.message)
        }
        let kept = json(device).objectValue?.keys ?? []
        // `null` and `[]` stand for a member left out (a push device without recovery codes writes none).
        if let stray = entry.object.members.first(where: {
            $0.value != .null && $0.value != .array([]) && !kept.contains($0.key)
        }) {
            throw SeedError(
                path: entry.location.appending(stray.key).description,
                reason: "unknown field (known here: \(kept.joined(separator: ", ")))")
        }
        return device
    }

    /// The devices as the seed writes them: the directory's form with ISO dates.
    static func json(_ devices: UserDevices) -> JSONValue {
        var out = JSONObject()
        for member in devices.stateJSON.members {
            out[member.key] = .array(
                (member.value.arrayValue ?? []).map { device in
                    guard var object = device.objectValue else { return device }
                    for key in dateMembers {
                        if let seconds = object[key]?.doubleValue {
                            object[key] = .string(ISO8601.formatMillis(seconds))
                        }
                    }
                    return .object(object)
                })
        }
        return .object(out)
    }
}
