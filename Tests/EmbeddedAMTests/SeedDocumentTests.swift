import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import Testing

/// The seed format (docs/seed.md): every bad input refused with the JSON path at fault and
/// nothing loaded; a document exported and imported into a fresh server answers the same.
@Suite struct SeedDocumentTests {
    static let oath: JSONValue = [
        "uuid": "oath-1", "deviceName": "OATH Device", "createdDate": "2026-01-01T00:00:00Z",
        "lastAccessDate": "2026-01-02T00:00:00.500Z", "sharedSecret": "AAECAwQFBgcICQoLDA0ODxAREhM", "counter": 0,
        "lastLogin": 0, "clockDriftSeconds": 0, "checksumDigit": false, "truncationOffset": -1, "recoveryCodes": [],
    ]

    static let document: JSONValue = [
        "format": "authbridge-seed", "version": 1,
        "users": [
            [
                "username": "ada", "password": "An4lytical!",
                "attributes": ["givenName": "Ada", "mail": "ada@example.com"],
                "kba": [["question": "First pet?", "answer": "Rex"]], "devices": ["oath": [oath]],
            ],
            [
                "username": "locked", "password": "L0cked!", "lock": ["until": "2027-01-01T00:00:00Z"],
                "counters": ["retry": 3],
            ],
        ],
        "sessions": [["token": "seeded-session-1", "username": "ada", "journeys": ["Login"]]],
        "clients": [["clientId": "web", "redirectUris": ["http://localhost:3000/cb"], "scopes": ["openid"]]],
    ]

    /// The document with one member replaced (a path of keys and indexes).
    static func with(_ path: [Any], _ value: JSONValue?, in json: JSONValue = document) -> JSONValue {
        guard let first = path.first else { return value ?? .null }
        let rest = Array(path.dropFirst())
        switch (json, first) {
        case (.object(var object), let key as String):
            object[key] = rest.isEmpty ? value : with(rest, value, in: object[key] ?? .null)
            return .object(object)
        case (.array(var list), let index as Int) where index <= list.count:
            if index == list.count { list.append(.null) }
            list[index] = with(rest, value, in: list[index])
            return .array(list)
        default: return json
        }
    }

    static func refusal(_ json: JSONValue) -> SeedError? {
        do {
            _ = try SeedDocument(json: json, minimumIterations: 64)
            return nil
        } catch { return error }
    }

    @Test func aValidDocumentReads() throws {
        let document = try SeedDocument(json: Self.document, minimumIterations: 64)
        #expect(document.users.map(\.username) == ["ada", "locked"])
        #expect(document.users[0].devices.oath.first?.record.lastAccessDate == 1_767_312_000.5)
        #expect(document.users[1].lock?.until == 1_798_761_600)
        #expect(document.sessions.first?.token == "seeded-session-1")
    }

    @Test(
        arguments: [
            // Duplicate users, names matched case-insensitively.
            (with(["users", 1, "username"], "ADA"), "users[1].username"),
            (with(["users", 0, "id"], "same", in: with(["users", 1, "id"], "same")), "users[1].id"),
            // Unknown fields, at every level.
            (with(["extra"], 1), "extra"),
            (with(["users", 0, "nickname"], "A"), "users[0].nickname"),
            (with(["users", 0, "devices", "oath", 0, "colour"], "red"), "users[0].devices.oath[0].colour"),
            (with(["users", 0, "devices", "sms"], []), "users[0].devices.sms"),
            (with(["sessions", 0, "ttl"], 5), "sessions[0].ttl"),
            (with(["clients", 0, "secret"], "s"), "clients[0].secret"),
            // Bad dates.
            (with(["users", 1, "lock", "until"], "2027-02-30T00:00:00Z"), "users[1].lock.until"),
            (with(["users", 1, "lock", "until"], 1_798_761_600), "users[1].lock.until"),
            (
                with(["users", 0, "devices", "oath", 0, "createdDate"], "yesterday"),
                "users[0].devices.oath[0].createdDate"
            ),
            (with(["sessions", 0, "authTime"], "1969-12-31T23:59:59Z"), "sessions[0].authTime"),
            // Other faults.
            (with(["version"], 2), "version"),
            (with(["format"], "firebase"), "format"),
            (with(["users", 0, "password"], nil), "users[0].password"),
            (with(["users", 0, "username"], ""), "users[0].username"),
            (with(["sessions", 1], ["token": "seeded-session-1", "username": "ada"]), "sessions[1].token"),
            (with(["sessions", 0, "token"], "has space"), "sessions[0].token"),
            (with(["clients", 0, "redirectUris"], ["callback"]), "clients[0].redirectUris[0]"),
            (with(["users", 1, "counters", "retry"], -1), "users[1].counters.retry"),
        ] as [(JSONValue, String)])
    func badInputIsRefusedByPath(json: JSONValue, path: String) {
        #expect(Self.refusal(json)?.path == path)
    }

    static func hash(_ fields: JSONObject) -> JSONValue {
        var hash: JSONObject = [
            "algorithm": "PBKDF2-HMAC-SHA256", "iterations": 64, "salt": .string(Base64URL.encode(Array(0..<16))),
            "hash": .string(Base64URL.encode(Array(repeating: 7, count: 32))),
        ]
        for member in fields.members { hash[member.key] = member.value == .null ? nil : member.value }
        return with(["users", 0, "password"], nil, in: with(["users", 0, "passwordHash"], .object(hash)))
    }

    @Test(
        arguments: [
            (["algorithm": "MD5"], "users[0].passwordHash.algorithm", "weak hash MD5"),
            (["algorithm": "sha1"], "users[0].passwordHash.algorithm", "weak hash sha1"),
            (["iterations": 1], "users[0].passwordHash.iterations", "weak hash: 1 iterations"),
            (["salt": .null], "users[0].passwordHash.salt", "weak hash: unsalted"),
            (["salt": "AAAA"], "users[0].passwordHash.salt", "weak hash: the salt is 3 bytes"),
            (["hash": "AAAA"], "users[0].passwordHash.hash", "expected 32 bytes"),
            (["pepper": "x"], "users[0].passwordHash.pepper", "unknown field"),
        ] as [(JSONObject, String, String)])
    func weakHashesAreRefused(fields: JSONObject, path: String, reason: String) {
        let refusal = Self.refusal(Self.hash(fields))
        #expect(refusal?.path == path)
        #expect(refusal?.reason.hasPrefix(reason) == true, "\(refusal?.reason ?? "accepted")")
    }

    @Test func aHashStringIsRefusedAsWeak() {
        let refusal = Self.refusal(
            Self.with(["users", 0, "password"], nil, in: Self.with(["users", 0, "passwordHash"], "5f4dcc3b5aa765d6")))
        #expect(refusal?.path == "users[0].passwordHash")
    }

    @Test func anOversizedOrBrokenDocumentIsRefusedWhole() {
        let big = [UInt8](repeating: 0x20, count: SeedDocument.maxBytes + 1)
        #expect(throws: SeedError(path: "", reason: "the document is larger than \(SeedDocument.maxBytes) bytes")) {
            try SeedDocument.read(big, minimumIterations: 64)
        }
        #expect(throws: SeedError.self) { try SeedDocument.read(Array("{\"version\":".utf8), minimumIterations: 64) }
    }

    @Test func aStoredHashLogsIn() throws {
        let source = Harness()
        let ada = try source.am.users.add(username: "ada", password: "An4lytical!", attributes: [:])
        let json = Self.with(["users"], [.object(EmbeddedAM.seedJSON(ada))], in: ["version": 1])
        let target = Harness(seed: 2)
        _ = try target.am.importSeed(try SeedDocument(json: json, minimumIterations: 64))
        #expect(target.am.users.verify(username: "ada", password: "An4lytical!")?.id == ada.id)
    }

    @Test func nothingIsLoadedWhenTheDirectoryRefusesPartOfIt() throws {
        let harness = Harness()
        let json = Self.with(["sessions", 0, "username"], "nobody")
        let document = try SeedDocument(json: json, minimumIterations: 64)
        #expect(
            throws: SeedError(
                path: "sessions[0].username", reason: "no user named nobody in the document or the directory")
        ) {
            try harness.am.importSeed(document)
        }
        #expect(harness.am.users.all.map(\.username) == ["demo"])
        #expect(harness.am.clients.find("web") == nil)
    }

    @Test func exportedStateImportsIntoAFreshServerAsItWas() throws {
        let first = Harness()
        let summary = try first.am.importSeed(try SeedDocument(json: Self.document, minimumIterations: 64))
        #expect([summary.users, summary.sessions, summary.clients] == [2, 1, 1])
        let exported = first.am.exportSeed()
        let second = Harness(seed: 7)
        _ = try second.am.importSeed(try SeedDocument(json: exported, minimumIterations: 64))
        #expect(second.am.exportSeed() == exported)
        #expect(second.am.users.verify(username: "ada", password: "An4lytical!") != nil)
        #expect(second.am.users.find(username: "ada")?.devices.oath.map(\.uuid) == ["oath-1"])
        #expect(second.am.sessions.find("seeded-session-1")?.username == "ada")
        #expect(second.am.clients.find("web")?.redirectUris == ["http://localhost:3000/cb"])
        #expect(second.am.users.find(username: "locked")?.lock?.holds(at: second.clock.now) == true)
    }
}
