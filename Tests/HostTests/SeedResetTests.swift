import AuthBridgeCore
import EmbeddedAM
import Foundation
import Host
import TestSupport
import Testing

/// `--import` at start, `emulator.import` and `emulator.reset` on the whole world: the start
/// state is what the state directory held plus the import, and a reset returns to it without a
/// respawn, native credentials included.
@Suite struct SeedResetTests {
    static func directory(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    }

    static func write(_ json: JSONValue, to path: String) throws {
        try Data(JSONWriter().bytes(json)).write(to: URL(fileURLWithPath: path))
    }

    static let ada: JSONValue = [
        "version": 1, "users": [["username": "ada", "password": "An4lytical!", "attributes": ["givenName": "Ada"]]],
    ]

    static func app(importing path: String? = nil, stateDirectory: String? = nil) throws -> ModuleHarness {
        var configuration = HostConfiguration()
        configuration.seed = 5
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.importFile = path
        configuration.stateDirectory = stateDirectory
        return try ModuleHarness(configuration: configuration)
    }

    /// Why a start with `--import path` stopped; nil when it did not.
    static func refusal(importing path: String) -> String? {
        var configuration = HostConfiguration()
        configuration.importFile = path
        do {
            _ = try ModuleHarness(configuration: configuration)
            return nil
        } catch {
            return error.message
        }
    }

    static func usernames(_ app: ModuleHarness) -> [String] { app.perform { $0.embedded.users.all.map(\.username) } }

    @Test func anImportAtStartIsPartOfTheStartStateAndResetReturnsToIt() throws {
        let folder = Self.directory("seed")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(Self.ada, to: folder + "/seed.json")
        let app = try Self.app(importing: folder + "/seed.json")
        #expect(Self.usernames(app) == ["ada", "demo"])

        _ = try app.call("start")
        _ = try app.call("tokenSyncReady")
        _ = try app.login("ada", "An4lytical!")
        let loggedIn = app.perform { $0.sdk.tokens.generation }
        _ = app.takeEvents()
        let more: JSONValue = ["version": 1, "users": [["username": "grace", "password": "C0bol!"]]]
        _ = try app.perform { world in Result { () throws(World.ImportFailure) in try world.importSeed(.inline(more)) }
        }.get()
        #expect(app.perform { $0.sdk.accessToken } != nil)
        #expect(Self.usernames(app) == ["ada", "demo", "grace"])

        try app.perform { world in Result { () throws(EmulatorError) in try world.reset() } }.get()
        #expect(Self.usernames(app) == ["ada", "demo"])
        #expect(app.perform { $0.sdk.accessToken } == nil)
        #expect(app.perform { $0.embedded.sessions.count } == 0)
        // JS hears that the tokens are gone, with a generation above every one it has seen.
        let events = app.takeEvents()
        #expect(events.map(\.0) == ["LOGOUT_EVENT"])
        #expect(events.first?.1 == ["reason": "reset", "generation": .int(loggedIn + 1)])
        // Logging in again after a reset works as after a start.
        _ = try app.login("ada", "An4lytical!")
        #expect(app.perform { $0.sdk.accessToken } != nil)
    }

    @Test func aResetWithAStateDirectoryIsSavedAsTheStartState() throws {
        let state = Self.directory("seed-state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        do {
            let app = try Self.app(stateDirectory: state)
            _ = try app.perform { world in
                Result { () throws(World.ImportFailure) in try world.importSeed(.inline(Self.ada)) }
            }.get()
            try app.perform { world in Result { () throws(EmulatorError) in try world.reset() } }.get()
        }
        let relaunched = try Self.app(stateDirectory: state)
        #expect(Self.usernames(relaunched) == ["demo"])
    }

    @Test func aBadImportFileStopsTheStartNamingThePath() throws {
        let folder = Self.directory("seed-bad")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bad: JSONValue = ["version": 1, "users": [["username": "ada", "password": "x", "nick": "A"]]]
        try Self.write(bad, to: folder + "/bad.json")
        #expect(Self.refusal(importing: folder + "/bad.json")?.contains("users[0].nick: unknown field") == true)
    }

    @Test func aGigabyteFileIsRefusedFromItsSize() throws {
        let folder = Self.directory("seed-big")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/big.json"
        // Sparse: its size says 1 GB, no disk is used, and the refusal must not read it.
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        #expect(Self.refusal(importing: path)?.contains("larger than \(SeedDocument.maxBytes) bytes") == true)
    }
}
