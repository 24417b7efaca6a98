import AuthBridgeCore
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--state-dir`: an app relaunch keeps the user logged in; the file is private, written whole
/// or not at all, and never silently replaced when it is damaged.
@Suite struct StateDirectoryEndToEnd {
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "authbridge-state-\(UUID().uuidString)"
        return path
    }

    static let deterministic = ["--seed", "7", "--clock", "virtual"]

    @Test func aRelaunchFindsTheUserLoggedIn() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try DaemonProcess.run(Self.deterministic + ["--state-dir", dir], lines: Requests.login)
        #expect(first.status == 0)
        let second = try DaemonProcess.run(
            Self.deterministic + ["--state-dir", dir],
            lines: [
                Requests.call(1, "getUserInfo"), Requests.call(2, "emulator.state"),
            ])
        #expect(second.status == 0)
        #expect(second.messages[0]["result"]?["preferred_username"] == "demo")
        #expect(second.messages[1]["result"]?["generation"] == 1)
        #expect(second.messages[1]["result"]?["ready"] == false)
    }

    @Test func theFileIsPrivateAndHoldsNoPassword() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try DaemonProcess.run(
            ["--state-dir", dir],
            lines: Requests.login + [
                Requests.call(4, "emulator.addUser", #"{"username":"ada","password":"S3cret-Pass"}"#)
            ])
        var info = stat()
        #expect(stat(dir + "/state.json", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(dir, &info) == 0)
        #expect(info.st_mode & 0o077 == 0)
        let text = try String(contentsOfFile: dir + "/state.json", encoding: .utf8)
        #expect(!text.contains("S3cret-Pass"))
        #expect(!text.contains("Ch4ng3it!"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/state.json.tmp"))
    }

    @Test func aCorruptFileStopsTheStartNamingIt() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(#"{"format":"authbridge-state","version":1,"native":{"gen"#.utf8).write(
            to: URL(fileURLWithPath: dir + "/state.json"))
        let result = try DaemonProcess.run(["--state-dir", dir], lines: [Requests.call(1, "daemon.hello")])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(dir + "/state.json"))
        #expect(result.stderr.contains("corrupt"))
        // Not discarded: the damaged file is still there for the user to look at.
        #expect(try String(contentsOfFile: dir + "/state.json", encoding: .utf8).hasSuffix(#""gen"#))

        try Data(#"{"format":"authbridge-state","version":1,"native":{"generation":"one"}}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/state.json"))
        let wrongType = try DaemonProcess.run(["--state-dir", dir], lines: [Requests.call(1, "daemon.hello")])
        #expect(wrongType.status == 1)
        #expect(wrongType.stderr.contains("native.generation: expected an integer"))
    }

    /// One damaged journal line with acknowledged records after it stops the start (status 1,
    /// the file and line named, nothing changed) instead of dropping them; `--recover-state
    /// last-good` then starts from the records before it, keeping a copy of the files.
    @Test func aJournalDamagedInTheMiddleStopsTheStartUntilRecoveryIsAskedFor() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try DaemonProcess(Self.deterministic + ["--state-dir", dir])
        for (index, name) in ["ada", "bob", "cy"].enumerated() {
            daemon.write(Requests.call(index, "emulator.addUser", #"{"username":"\#(name)","password":"p"}"#) + "\n")
            daemon.waitForLines(index + 1)
        }
        daemon.closeInput()
        #expect(daemon.wait().status == 0)
        let journalURL = URL(fileURLWithPath: dir + "/state.journal")
        var journal = try Data(contentsOf: journalURL)
        let lines = journal.split(separator: 0x0A)
        #expect(lines.count == 3, "one record per acknowledged change")
        let first = journal.firstIndex(of: 0x0A)! + 1
        journal[first + 20] = journal[first + 20] == 0x7B ? 0x5B : 0x7B  // inside bob's record
        try journal.write(to: journalURL)
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: dir + "/state.json"))

        let refused = try DaemonProcess.run(
            Self.deterministic + ["--state-dir", dir], lines: [Requests.call(1, "daemon.hello")])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(
            refused.stderr.contains("\(dir)/state.journal is damaged at line 2 (byte \(first))"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--recover-state last-good"))
        #expect(try Data(contentsOf: journalURL) == journal, "the evidence is left as it was")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/state.json")) == snapshot)

        let recovered = try DaemonProcess.run(
            Self.deterministic + ["--state-dir", dir, "--recover-state", "last-good"],
            lines: [
                Requests.call(1, "emulator.addUser", #"{"username":"ada","password":"p"}"#),
                Requests.call(2, "emulator.state"),
            ])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(recovered.messages[0]["error"]?["message"]?.stringValue?.contains("ada already exists") == true)
        #expect(
            recovered.messages[1]["result"]?["server"]?["users"] == 2,
            "demo and ada: bob's damaged record and cy's after it dropped")
        #expect(recovered.stderr.contains("state.journal.damaged-1"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/state.journal.damaged-1")) == journal)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/state.json.damaged-1")) == snapshot)
    }

    /// A retired refresh token whose expiry has the wrong type stops the start naming it; it was
    /// once read as "no expiry" and written back as a number.
    @Test func aWrongTypedSavedValueStopsTheStartNamingIt() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try DaemonProcess.run(Self.deterministic + ["--state-dir", dir], lines: [])
        let url = URL(fileURLWithPath: dir + "/state.json")
        var snapshot = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        snapshot["entries"] =
            (snapshot["entries"] as! [Any]) + [[["server", "oauth", "retired", "rt-1"], "2027-01-01"]]
        let hostile = try JSONSerialization.data(withJSONObject: snapshot)
        try hostile.write(to: url)
        let result = try DaemonProcess.run(
            Self.deterministic + ["--state-dir", dir], lines: [Requests.call(1, "daemon.hello")])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("server.oauth.retired.rt-1: expected a number or null, found string"),
            "\(result.stderr)")
        #expect(try Data(contentsOf: url) == hostile, "not rewritten")
    }

    /// A kill during a save leaves at most a half-written temp file beside the real one; the next
    /// start must read the real one and clear the temp away.
    @Test func aHalfWrittenSaveIsIgnored() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try DaemonProcess.run(Self.deterministic + ["--state-dir", dir], lines: Requests.login)
        try Data(#"{"format":"authbridge-sta"#.utf8).write(to: URL(fileURLWithPath: dir + "/state.json.tmp"))
        let result = try DaemonProcess.run(
            Self.deterministic + ["--state-dir", dir], lines: [Requests.call(1, "getUserInfo")])
        #expect(result.status == 0)
        #expect(result.messages[0]["result"]?["preferred_username"] == "demo")
        #expect(!FileManager.default.fileExists(atPath: dir + "/state.json.tmp"))
    }

    @Test func twoDaemonsCannotShareADirectory() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let holder = try DaemonProcess(["--state-dir", dir])
        holder.write(Requests.call(1, "daemon.hello") + "\n")
        holder.waitForLines(1)  // answered: the holder has the directory's lock
        let second = try DaemonProcess.run(
            Self.deterministic + ["--state-dir", dir], lines: [Requests.call(1, "daemon.hello")])
        holder.closeInput()
        #expect(holder.wait().status == 0)
        #expect(second.status == 1)
        #expect(
            second.stderr.contains(
                "the state directory \(dir) is in use by another authbridge (pid \(holder.process.processIdentifier)): stop it (kill \(holder.process.processIdentifier), or end its input), or give this one another --state-dir"
            ))
    }

    /// Kills the daemon with SIGKILL at arbitrary instants while it saves state (every chunk
    /// below changes it), many times over the same directory. Every restart must find valid
    /// state holding every change whose response was written before the kill: each user whose
    /// `emulator.addUser` was answered exists, and the clock is at least where the last answered
    /// `emulator.advanceClock` put it. (Changes sent but not answered may or may not be there.)
    @Test func sigkillKeepsEveryAcknowledgedChange() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var random = SystemRandomNumberGenerator()
        var seen: Int64 = 1  // the demo user
        var cutShort = 0
        let rounds = 30
        for round in 0..<rounds {
            let daemon = try DaemonProcess(Self.deterministic + ["--state-dir", dir])
            var lines: [String] = []
            for i in 0..<60 {
                lines.append(
                    Requests.call(i * 2, "emulator.addUser", #"{"username":"u\#(round)-\#(i)","password":"p"}"#))
                lines.append(Requests.call(i * 2 + 1, "emulator.advanceClock", #"{"seconds":1}"#))
            }
            // The stdio face commits each request of a chunk it reads, then answers the chunk.
            // Chunks of six go one by one, each answered before the next, up to a random one;
            // then two more at once, and the kill lands a random instant later: among their
            // commits. Under 64 KiB in all: no write meets a dead pipe.
            daemon.write(Requests.call(-1, "daemon.ping") + "\n")
            daemon.waitForLines(1)
            let chunks = stride(from: 0, to: lines.count, by: 6).map {
                lines[$0..<min($0 + 6, lines.count)].joined(separator: "\n") + "\n"
            }
            let answeredChunks = Int.random(in: 0...(chunks.count - 2), using: &random)
            for (k, chunk) in chunks[..<answeredChunks].enumerated() {
                daemon.write(chunk)
                daemon.waitForLines(1 + (k + 1) * 6)
            }
            daemon.write(chunks[answeredChunks] + chunks[answeredChunks + 1])
            usleep(UInt32.random(in: 0...6_000, using: &random))
            kill(daemon.process.processIdentifier, SIGKILL)
            let answers = daemon.wait().messages
            daemon.closeInput()
            let acknowledged = answers.compactMap { $0["result"]?["username"]?.stringValue }
            let acknowledgedNow = answers.compactMap { $0["result"]?["now"]?.doubleValue }.max()
            if (1..<60).contains(acknowledged.count) { cutShort += 1 }

            // Adding an acknowledged user again must be refused: it is there. Nothing is changed.
            let readd = acknowledged.enumerated().map { k, name in
                Requests.call(k + 1, "emulator.addUser", #"{"username":"\#(name)","password":"p"}"#)
            }
            let check = try DaemonProcess.run(
                Self.deterministic + ["--state-dir", dir], lines: [Requests.call(0, "emulator.state")] + readd)
            #expect(check.status == 0, "round \(round): \(check.stderr)")
            guard let state = check.messages.first?["result"], let users = state["server"]?["users"]?.intValue else {
                Issue.record("round \(round): no state: \(check.stderr)")
                break
            }
            #expect(
                users >= seen + Int64(acknowledged.count),
                "round \(round): \(users) users, \(seen) before and \(acknowledged.count) acknowledged")
            for (answer, name) in zip(check.messages.dropFirst(), acknowledged) {
                #expect(
                    answer["error"]?["message"]?.stringValue?.contains("\(name) already exists") == true,
                    "round \(round): acknowledged \(name) lost: \(answer)")
            }
            if let acknowledgedNow, let now = state["now"]?.doubleValue {
                #expect(
                    now >= acknowledgedNow, "round \(round): clock \(now) behind the acknowledged \(acknowledgedNow)")
            }
            seen = users
        }
        // The kills must have landed after some answers and before the last, or this proved nothing.
        #expect(cutShort >= rounds / 4, "\(cutShort) of \(rounds) kills landed between the first answer and the last")
    }
}

/// The journal: a change appends what changed and never rewrites the snapshot; a file written by
/// the previous version (one tree, version 1) still loads and is rewritten as version 2.
@Suite struct StateJournalEndToEnd {
    @Test func aChangeAppendsToTheJournalAndLeavesTheSnapshotAlone() throws {
        let dir = StateDirectoryEndToEnd.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let daemon = try DaemonProcess(StateDirectoryEndToEnd.deterministic + ["--state-dir", dir])
        daemon.write(Requests.call(1, "daemon.ping") + "\n")
        daemon.waitForLines(1)  // answered: the snapshot is written
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: dir + "/state.json"))
        for (index, line) in Requests.login.enumerated() {
            daemon.write(line + "\n")
            if index == 0 { daemon.waitForLines(2) }
        }
        daemon.write(Requests.call(9, "emulator.addUser", #"{"username":"ada","password":"An4lytical!"}"#) + "\n")
        daemon.closeInput()
        #expect(daemon.wait().status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/state.json")) == snapshot)
        let journal = try String(contentsOfFile: dir + "/state.journal", encoding: .utf8)
        #expect(journal.contains("\"ada\""))
        #expect(!journal.contains("Ch4ng3it!") && !journal.contains("An4lytical!"), "no clear password, ever")
        // On the saved virtual clock: on the system clock the tokens and the SSO session, made
        // at the virtual epoch, would all be long expired.
        let after = try DaemonProcess.run(
            StateDirectoryEndToEnd.deterministic + ["--state-dir", dir],
            lines: [Requests.call(1, "getUserInfo"), Requests.call(2, "emulator.state")])
        #expect(after.messages[0]["result"]?["preferred_username"] == "demo")
        #expect(after.messages[1]["result"]?["server"]?["users"] == 2)
    }

    @Test func aVersion1StateFileStillLoads() throws {
        let dir = StateDirectoryEndToEnd.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(
            atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/state-v1.json")
        try Data(contentsOf: fixture).write(to: URL(fileURLWithPath: dir + "/state.json"))
        chmod(dir + "/state.json", 0o600)
        let result = try DaemonProcess.run(
            StateDirectoryEndToEnd.deterministic + ["--state-dir", dir],
            lines: [
                Requests.call(1, "getUserInfo"), Requests.call(2, "emulator.state"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.messages[0]["result"]?["preferred_username"] == "demo", "the user logged in by version 1 still is")
        #expect(result.messages[1]["result"]?["server"]?["users"] == 2, "demo and ada")
        let rewritten = try String(contentsOfFile: dir + "/state.json", encoding: .utf8)
        #expect(rewritten.contains("\"version\":2"))
    }

    /// A directory as an earlier build left it: a version-2 snapshot and a journal of four commits
    /// (a login, a user added, the clock advanced a minute).
    @Test func aVersion2SnapshotAndJournalStillLoad() throws {
        let dir = StateDirectoryEndToEnd.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(
            atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/state-v2")
        for file in ["state.json", "state.journal"] {
            try Data(contentsOf: fixtures.appendingPathComponent(file)).write(
                to: URL(fileURLWithPath: dir + "/" + file))
            chmod(dir + "/" + file, 0o600)
        }
        let result = try DaemonProcess.run(
            StateDirectoryEndToEnd.deterministic + ["--state-dir", dir],
            lines: [
                Requests.call(1, "getUserInfo"), Requests.call(2, "emulator.state"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.messages[0]["result"]?["preferred_username"] == "demo")
        #expect(result.messages[1]["result"]?["server"]?["users"] == 2, "demo and ada")
        #expect(result.messages[1]["result"]?["now"] == 1_767_225_660, "the journal's last commit moved the clock")
        let snapshot = try Self.snapshot(dir)
        #expect(snapshot["seq"] as? Int == 4, "the journal folded into the snapshot, numbers going on")
    }

    /// A run on the system clock without `--seed` writes back the clock and the seeded stream as
    /// a seeded, virtual-clock run left them, while saving its own changes.
    @Test func aRunWithoutSeedOrVirtualClockCarriesTheirEntriesThrough() throws {
        let dir = StateDirectoryEndToEnd.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let deterministic = StateDirectoryEndToEnd.deterministic + ["--state-dir", dir]
        _ = try DaemonProcess.run(
            deterministic, lines: Requests.login + [Requests.call(4, "emulator.advanceClock", #"{"seconds":90}"#)])
        // Every start folds the journal into the snapshot: what the last run left is all there.
        _ = try DaemonProcess.run(deterministic, lines: [])
        let before = try Self.snapshot(dir)
        let plain = try DaemonProcess.run(
            ["--state-dir", dir],
            lines: [
                Requests.call(1, "emulator.addUser", #"{"username":"ada","password":"An4lytical!"}"#)
            ])
        #expect(plain.status == 0, "\(plain.stderr)")
        _ = try DaemonProcess.run(["--state-dir", dir], lines: [])
        let after = try Self.snapshot(dir)
        for key in ["clock", "random"] {
            let was = try #require(Self.entry(before, [key]))
            #expect(Self.entry(after, [key]) == was, "\(key) carried through")
        }
        #expect(Self.entry(after, ["server", "users", "ada"]) != nil)
    }

    static func snapshot(_ dir: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/state.json")))
            as! [String: Any]
    }

    static func entry(_ snapshot: [String: Any], _ path: [String]) -> NSDictionary? {
        for case let pair as [Any] in snapshot["entries"] as? [Any] ?? [] where pair[0] as? [String] == path {
            return pair[1] as? NSDictionary
        }
        return nil
    }
}
