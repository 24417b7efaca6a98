import AuthBridgeCore
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The defects an adversarial battery found (issue 19), each driven end to end against the
/// built binary: the daemon refuses what it cannot carry, never crashes on it, and never
/// acknowledges a change it could not keep.
@Suite struct HardeningEndToEnd {
    static let deterministic = ["--seed", "7", "--clock", "virtual"]

    static func directory() -> String { NSTemporaryDirectory() + "authbridge-hard-\(UUID().uuidString)" }

    static func addUser(_ id: Int, _ name: String) -> String {
        Requests.call(id, "emulator.addUser", #"{"username":"\#(name)","password":"Passw0rd!"}"#)
    }

    /// Runs the daemon, killing it if it has not ended within `seconds`: a hang fails the test
    /// instead of stalling the suite.
    static func run(_ arguments: [String], lines: [String], within seconds: Double = 10) throws -> DaemonProcess.Result
    {
        let daemon = try DaemonProcess(arguments)
        let pid = daemon.process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        daemon.write(lines.map { $0 + "\n" }.joined())
        daemon.closeInput()
        let result = daemon.wait()
        watchdog.cancel()
        return result
    }

    static func users(in dir: String) throws -> Int64? {
        let check = try DaemonProcess.run(["--state-dir", dir], lines: [Requests.call(1, "emulator.state")])
        return check.messages.first?["result"]?["server"]?["users"]?.intValue
    }

    /// Rewrites one member of a saved state file.
    static func edit(_ dir: String, _ change: (inout [String: Any]) -> Void) throws {
        let url = URL(fileURLWithPath: dir + "/state.json")
        var state = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        change(&state)
        try JSONSerialization.data(withJSONObject: state).write(to: url)
    }

    // MARK: 1. time

    @Test func timesPastTheYear9999AreRefusedWhereTheyEnterAndTheDaemonKeepsServing() throws {
        let result = try Self.run(
            ["--clock", "virtual"],
            lines: [
                Requests.call(1, "emulator.advanceClock", #"{"seconds":1e300}"#),
                Requests.call(2, "emulator.advanceClock", #"{"seconds":1e400}"#),
                Requests.call(3, "start"), Requests.call(4, "login"),
                Requests.call(5, "tokenUpdate", #"[{"accessToken":"a","refreshToken":"r","expiresAt":1e300}]"#),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let messages = result.messages
        #expect(messages[0]["error"]?["code"] == -32602)
        #expect(messages[0]["error"]?["data"]?["param"] == "seconds")
        #expect(messages[0]["error"]?["message"]?.stringValue?.contains("9999-12-31T23:59:59Z") == true)
        #expect(messages[1]["error"]?["message"]?.stringValue?.contains("finite") == true)
        #expect(messages[3]["result"]?.stringValue != nil, "login works after the refusals")
        #expect(messages[4]["error"]?["code"] == -32602)

        let flag = try DaemonProcess.run(["--clock", "virtual=1e300"], lines: [])
        #expect(flag.status == 2)
        #expect(flag.stderr.contains("253402300799"))
    }

    @Test func aSavedTimePastTheRangeStopsTheStartNamingTheMember() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try DaemonProcess.run(Self.deterministic + ["--state-dir", dir], lines: [Requests.call(1, "daemon.ping")])
        try Self.edit(dir) { Self.editEntry(&$0, ["clock"]) { $0 = ["now": 1e300] } }
        let restart = try DaemonProcess.run(
            Self.deterministic + ["--state-dir", dir], lines: [Requests.call(1, "start")])
        #expect(restart.status == 1)
        #expect(restart.stderr.contains("clock.now"), "\(restart.stderr)")
    }

    // MARK: 2. ids never repeat

    @Test func seededAndUnseededRunsOnOneDirectoryNeverRepeatAnId() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let alice = try DaemonProcess.run(Self.deterministic + ["--state-dir", dir], lines: [Self.addUser(1, "alice")])
        _ = try DaemonProcess.run(["--state-dir", dir], lines: [Requests.call(1, "daemon.ping")])
        let bob = try DaemonProcess.run(Self.deterministic + ["--state-dir", dir], lines: [Self.addUser(1, "bob")])
        let aliceId = alice.messages.first?["result"]?["id"]?.stringValue
        let bobId = bob.messages.first?["result"]?["id"]?.stringValue
        #expect(aliceId != nil && bobId != nil)
        #expect(aliceId != bobId)
    }

    // MARK: 3. acknowledged means durable

    /// A save that fails (here: the file-size limit a quota sets, reached by one large change)
    /// turns the request into an error, undoes the change in memory, and the daemon keeps
    /// serving; after a kill, exactly the acknowledged changes are there.
    @Test func aChangeThatCannotBeSavedIsAnErrorAndIsUndone() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 16 × 512-byte blocks: the snapshot and small journal records fit, an 8 KiB one does not.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = [
            "-c", "ulimit -f 16 && exec \"$0\" --seed 7 --clock virtual --state-dir \"$1\"", DaemonProcess.binary.path,
            dir,
        ]
        let input = Pipe()
        let output = Pipe()
        shell.standardInput = input
        shell.standardOutput = output
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        let big = String(repeating: "x", count: 8192)
        let lines = [
            Self.addUser(1, "alice"),
            Requests.call(2, "emulator.addUser", #"{"username":"bob","password":"Passw0rd!","givenName":"\#(big)"}"#),
            Requests.call(3, "emulator.state"),
            Self.addUser(4, "carol"),
        ]
        input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        // Every request answered, then the kill: what was acknowledged must survive it.
        var received = Data()
        while received.count(where: { $0 == 0x0A }) < lines.count,
            case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty
        {
            received.append(chunk)
        }
        kill(shell.processIdentifier, SIGKILL)
        shell.waitUntilExit()
        let messages = String(decoding: received, as: UTF8.self)
            .split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        let byId = Dictionary(messages.map { ($0["id"]?.intValue ?? -1, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byId[1]?["result"]?["username"] == "alice")
        #expect(byId[2]?["error"]?["code"] == -32001, "\(messages)")
        #expect(byId[2]?["error"]?["message"]?.stringValue?.contains("undone") == true)
        #expect(byId[3]?["result"]?["server"]?["users"] == 2, "demo and alice: bob was rolled back")
        #expect(byId[4]?["result"]?["username"] == "carol", "the daemon goes on saving what fits")
        let after = try DaemonProcess.run(
            ["--state-dir", dir],
            lines: [
                Requests.call(1, "emulator.state"), Self.addUser(2, "bob"),
            ])
        #expect(after.messages.first?["result"]?["server"]?["users"] == 3, "demo, alice, carol")
        #expect(after.messages.last?["result"]?["username"] == "bob", "bob never existed")
    }

    @Test func aDirectoryThatCannotBeWrittenStopsTheStart() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(
            atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: dir + "/state.json.tmp", withIntermediateDirectories: false)
        let result = try DaemonProcess.run(["--state-dir", dir], lines: [Requests.call(1, "daemon.ping")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("state.json.tmp"), "\(result.stderr)")
    }

    // MARK: 4. the state directory is private

    @Test func unsafeStateDirectoriesAndFilesAreRefused() throws {
        let base = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        let real = base + "/real"
        _ = try DaemonProcess.run(["--state-dir", real], lines: [Requests.call(1, "daemon.ping")])

        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: real)
        let viaLink = try DaemonProcess.run(["--state-dir", base + "/link"], lines: [])
        #expect(viaLink.status == 1)
        #expect(viaLink.stderr.contains("symbolic link"))

        let open = base + "/open"
        try FileManager.default.createDirectory(
            atPath: open, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        chmod(open, 0o777)
        let shared = try DaemonProcess.run(["--state-dir", open], lines: [])
        #expect(shared.status == 1)
        #expect(shared.stderr.contains("writable by others"))

        let foreign = base + "/foreign"
        try FileManager.default.createDirectory(
            atPath: foreign, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        chown(foreign, 4242, 4242)
        let theirs = try DaemonProcess.run(["--state-dir", foreign], lines: [])
        #expect(theirs.status == 1)
        #expect(theirs.stderr.contains("another user"))
    }

    /// A symlink planted where the temp file goes is never followed: its target keeps its bytes.
    @Test func aPlantedTempSymlinkIsNeverFollowed() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "-target"
        defer { try? FileManager.default.removeItem(atPath: target) }
        try Data("precious".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createDirectory(
            atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: dir + "/state.json.tmp", withDestinationPath: target)
        let result = try DaemonProcess.run(["--state-dir", dir], lines: Requests.login)
        #expect(result.status == 1)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")

        try FileManager.default.removeItem(atPath: dir + "/state.json.tmp")
        try FileManager.default.createSymbolicLink(atPath: dir + "/state.json", withDestinationPath: target)
        let linkedState = try DaemonProcess.run(["--state-dir", dir], lines: [])
        #expect(linkedState.status == 1)
        #expect(linkedState.stderr.contains("state.json"), "\(linkedState.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")
    }

    // MARK: 5. what is accepted can be read back

    @Test func anAttributePathTooDeepToSaveIsRefusedWhenTheJourneyLoads() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        let deep = Array(repeating: "a", count: 70).joined(separator: "/")
        let journey =
            #"{"name":"Deep","entry":"p","nodes":{"p":{"type":"page","callbacks":[{"type":"StringAttributeInputCallback","attribute":"\#(deep)"}],"outcomes":{"next":"s"}},"s":{"type":"success"}}}"#
        try Data(journey.utf8).write(to: URL(fileURLWithPath: dir + "/deep.json"))
        let result = try DaemonProcess.run(["--journeys", dir + "/deep.json"], lines: [])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nests 70 levels"), "\(result.stderr)")
    }

    // MARK: 6. saved values are checked at load

    @Test func impossibleSavedValuesStopTheStartNamingTheMember() throws {
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("iterations", { Self.editPassword(&$0) { $0["iterations"] = 0 } }),
            ("digest", { Self.editPassword(&$0) { $0["digest"] = "" } }),
            (
                "already the name",
                { state in
                    var entries = state["entries"] as! [[Any]]
                    var twin =
                        entries.first { ($0[0] as! [String]) == ["server", "users", "demo"] }![1] as! [String: Any]
                    twin["username"] = "DEMO"
                    twin["id"] = "another-id"
                    entries.append([["server", "users", "demo-twin"], twin])
                    state["entries"] = entries
                }
            ),
        ]
        for (expected, change) in cases {
            let dir = Self.directory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            _ = try DaemonProcess.run(
                Self.deterministic + ["--state-dir", dir], lines: [Requests.call(1, "daemon.ping")])
            try Self.edit(dir, change)
            let restart = try Self.run(["--state-dir", dir], lines: Requests.login, within: 10)
            #expect(restart.status == 1, "\(expected): \(restart.stderr)")
            #expect(restart.stderr.contains(expected), "\(expected): \(restart.stderr)")
        }
    }

    /// Changes one entry of a saved snapshot (`entries: [[path, value], …]`).
    static func editEntry(_ state: inout [String: Any], _ path: [String], _ change: (inout Any) -> Void) {
        var entries = state["entries"] as! [[Any]]
        let index = entries.firstIndex { ($0[0] as! [String]) == path }!
        change(&entries[index][1])
        state["entries"] = entries
    }

    /// Changes the saved password hash of the demo user.
    static func editPassword(_ state: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
        editEntry(&state, ["server", "users", "demo"]) { value in
            var user = value as! [String: Any]
            var password = user["password"] as! [String: Any]
            change(&password)
            user["password"] = password
            value = user
        }
    }

    // MARK: 7. files that are not files

    @Test func fifosAndDevicesAreRefusedWithoutHanging() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(
            atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(mkfifo(dir + "/journeys.fifo", 0o600) == 0)
        let fifo = try Self.run(["--journeys", dir + "/journeys.fifo"], lines: [], within: 5)
        #expect(fifo.status == 1)
        #expect(fifo.stderr.contains("not a regular file"))
        let zero = try Self.run(["--journeys", "/dev/zero"], lines: [], within: 5)
        #expect(zero.status == 1)
        #expect(zero.stderr.contains("not a regular file"))

        let state = dir + "/state"
        try FileManager.default.createDirectory(
            atPath: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(mkfifo(state + "/state.json", 0o600) == 0)
        let stateFifo = try Self.run(["--state-dir", state], lines: [], within: 5)
        #expect(stateFifo.status == 1)
        #expect(stateFifo.stderr.contains("not a regular file"), "\(stateFifo.stderr)")
    }

    // MARK: 8. SIGTERM whatever the pipe state

    /// The host floods requests and stops reading stdout after the first reply: the daemon blocks
    /// writing its replies, and SIGTERM still ends it with exit 0 (not a kill by the watchdog).
    @Test func sigtermEndsADaemonWhoseHostStoppedReading() throws {
        // The flood's writer may still be writing when the daemon ends: an error, not a signal.
        signal(SIGPIPE, SIG_IGN)
        let daemon = Process()
        daemon.executableURL = DaemonProcess.binary
        let input = Pipe()
        let output = Pipe()  // read once, to know the flood is being answered
        daemon.standardInput = input
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        let hello = Array((Requests.call(1, "daemon.hello") + "\n").utf8)
        let burst = Data((0..<4000).flatMap { _ in hello })
        DispatchQueue.global().async { try? input.fileHandleForWriting.write(contentsOf: burst) }
        // 4000 replies are far more than a pipe holds: after this one, the daemon blocks writing.
        #expect(!output.fileHandleForReading.availableData.isEmpty)
        kill(daemon.processIdentifier, SIGTERM)
        let ended = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            daemon.waitUntilExit()
            ended.signal()
        }
        let inTime = ended.wait(timeout: .now() + 8) == .success
        if !inTime { kill(daemon.processIdentifier, SIGKILL) }
        #expect(inTime, "SIGTERM was ignored")
        if inTime {
            #expect(daemon.terminationReason == .exit)
            #expect(daemon.terminationStatus == 0)
        }
    }

    // MARK: 9. the lock covers the directory written

    @Test func aDirectoryReplacedUnderARunningDaemonIsNeverWrittenByIt() throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try DaemonProcess(Self.deterministic + ["--state-dir", dir])
        first.write(Self.addUser(1, "alice") + "\n")
        first.waitForLines(1)  // alice answered: the first daemon holds the directory
        try FileManager.default.removeItem(atPath: dir)
        let second = try DaemonProcess.run(["--state-dir", dir], lines: [Self.addUser(1, "bob")])
        #expect(second.status == 0, "a new directory is a new lock: \(second.stderr)")
        first.write(Self.addUser(2, "carol") + "\n")
        first.closeInput()
        let firstResult = first.wait()
        let carol = firstResult.messages.first { $0["id"] == 2 }
        #expect(carol?["error"]?["code"] == -32001, "\(firstResult.messages)")
        #expect(carol?["error"]?["data"]?["reason"]?.stringValue?.contains("removed or replaced") == true)
        // The second daemon's change is in its journal or its snapshot.
        let state =
            try String(contentsOfFile: dir + "/state.json", encoding: .utf8)
            + String(contentsOfFile: dir + "/state.journal", encoding: .utf8)
        #expect(state.contains("\"bob\""))
        #expect(!state.contains("\"carol\"") && !state.contains("\"alice\""))
    }

    // MARK: 10. nesting

    @Test func maxDepthIsCappedBelowWhatTheParserCanTake() throws {
        let over = try DaemonProcess.run(["--max-depth", "1000000"], lines: [])
        #expect(over.status == 2)
        #expect(over.stderr.contains("from 1 to 1000"))
        let deep =
            #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"a":"# + String(repeating: "[", count: 998)
            + String(repeating: "]", count: 998) + "}}"
        let atCap = try DaemonProcess.run(["--max-depth", "1000"], lines: [deep, Requests.call(2, "daemon.ping")])
        #expect(atCap.status == 0, "\(atCap.stderr.prefix(300))")
        #expect(atCap.messages.count == 2)
        #expect(atCap.messages.first?["result"] == [:])
    }

    // MARK: 13. no stdout

    @Test func startingWithStdoutClosedIsAClearErrorNotACrash() throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "exec \"$0\" >&- </dev/null", DaemonProcess.binary.path]
        let errors = Pipe()
        shell.standardError = errors
        try shell.run()
        shell.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(shell.terminationStatus == 2)
        #expect(text.contains("stdout is closed"), "\(text)")
    }
}
