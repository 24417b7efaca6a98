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
        let second = try DaemonProcess.run(Self.deterministic + ["--state-dir", dir], lines: [
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
        _ = try DaemonProcess.run(["--state-dir", dir], lines: Requests.login + [
            Requests.call(4, "emulator.addUser", #"{"username":"ada","password":"S3cret-Pass"}"#),
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
        try Data(#"{"format":"authbridge-state","version":1,"native":{"gen"#.utf8).write(to: URL(fileURLWithPath: dir + "/state.json"))
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

    /// A kill during a save leaves at most a half-written temp file beside the real one; the next
    /// start must read the real one and clear the temp away.
    @Test func aHalfWrittenSaveIsIgnored() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try DaemonProcess.run(Self.deterministic + ["--state-dir", dir], lines: Requests.login)
        try Data(#"{"format":"authbridge-sta"#.utf8).write(to: URL(fileURLWithPath: dir + "/state.json.tmp"))
        let result = try DaemonProcess.run(Self.deterministic + ["--state-dir", dir], lines: [Requests.call(1, "getUserInfo")])
        #expect(result.status == 0)
        #expect(result.messages[0]["result"]?["preferred_username"] == "demo")
        #expect(!FileManager.default.fileExists(atPath: dir + "/state.json.tmp"))
    }

    @Test func twoDaemonsCannotShareADirectory() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let holder = try DaemonProcess(["--state-dir", dir])
        holder.write(Requests.call(1, "daemon.hello") + "\n")
        Thread.sleep(forTimeInterval: 0.3)
        let second = try DaemonProcess.run(Self.deterministic + ["--state-dir", dir], lines: [Requests.call(1, "daemon.hello")])
        holder.closeInput()
        #expect(holder.wait().status == 0)
        #expect(second.status == 1)
        #expect(second.stderr.contains("in use by another authbridge"))
    }

    /// Kills the daemon with SIGKILL at arbitrary instants while it saves state (every chunk
    /// below changes it), many times over the same directory. Every restart must find valid
    /// state, and state only grows here, so it must never hold fewer users than the last
    /// restart saw.
    @Test func sigkillDuringSavesNeverLeavesATornFile() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var random = SystemRandomNumberGenerator()
        var seen: Int64 = 1  // the demo user
        var grew = 0
        let rounds = 40
        for round in 0..<rounds {
            let daemon = try DaemonProcess(Self.deterministic + ["--state-dir", dir])
            var lines: [String] = []
            for i in 0..<150 {
                lines.append(Requests.call(i * 2, "emulator.addUser", #"{"username":"u\#(round)-\#(i)","password":"p"}"#))
                lines.append(Requests.call(i * 2 + 1, "emulator.advanceClock", #"{"seconds":1}"#))
            }
            // Each chunk the daemon reads is one transaction, saved when it ends: the input goes
            // in many small writes so saves happen all along and the kill lands among them.
            // Under 64 KiB in all, so every write completes even if the daemon is gone.
            for start in stride(from: 0, to: lines.count, by: 10) {
                daemon.write(lines[start..<min(start + 10, lines.count)].joined(separator: "\n") + "\n")
                usleep(5_000)
            }
            usleep(UInt32.random(in: 0...150_000, using: &random))
            kill(daemon.process.processIdentifier, SIGKILL)
            _ = daemon.wait()
            daemon.closeInput()

            let check = try DaemonProcess.run(["--state-dir", dir], lines: [Requests.call(1, "emulator.state")])
            #expect(check.status == 0, "round \(round): \(check.stderr)")
            guard let users = check.messages.first?["result"]?["server"]?["users"]?.intValue else {
                Issue.record("round \(round): no state: \(check.stderr)")
                break
            }
            #expect(users >= seen, "round \(round): \(users) users after \(seen)")
            if users > seen { grew += 1 }
            seen = users
        }
        // The kills must have landed while saves were happening, or this proved nothing.
        #expect(grew > rounds / 2)
    }
}
