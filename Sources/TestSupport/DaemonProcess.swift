import AuthBridgeCore
import Foundation
import Synchronization

/// The built `authbridge` binary, run as a host runs it: bytes in on stdin, stdout and stderr
/// drained concurrently (so a chatty stderr can never block the child), exit status out.
public struct DaemonProcess {
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["AUTHBRIDGE_BIN"] { return URL(fileURLWithPath: path) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/authbridge")
    }

    public struct Result {
        public var stdout: [UInt8]
        public var stderr: String
        public var status: Int32

        /// stdout as NDJSON: one parsed message per line. Fails the parse loudly if a line is not JSON.
        public var messages: [JSONValue] {
            String(decoding: stdout, as: UTF8.self).split(separator: "\n").map { line in
                (try? JSONParser.parse(String(line))) ?? .string("NOT JSON: \(line)")
            }
        }
    }

    public let process = Process()
    public let stdin = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let collected = Collected()

    final class Collected: Sendable {
        let pipes = Mutex<(out: Data, err: Data)>((Data(), Data()))
        let group = DispatchGroup()
    }

    public init(_ arguments: [String]) throws {
        process.executableURL = Self.binary
        process.arguments = arguments
        process.standardInput = stdin
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        try process.run()
        let collected = self.collected
        let outHandle = stdoutPipe.fileHandleForReading
        let errHandle = stderrPipe.fileHandleForReading
        collected.group.enter()
        DispatchQueue.global().async {
            // Piece by piece, so that `waitForLines` sees answers while the daemon runs.
            while case let data = outHandle.availableData, !data.isEmpty {
                collected.pipes.withLock { $0.out.append(data) }
            }
            collected.group.leave()
        }
        collected.group.enter()
        DispatchQueue.global().async {
            let data = errHandle.readDataToEndOfFile()
            collected.pipes.withLock { $0.err = data }
            collected.group.leave()
        }
    }

    /// A daemon that refused to start has closed its stdin: what it was sent is then lost, not a
    /// crash of the test process (EPIPE once a test ignores SIGPIPE); its status and stderr tell.
    public func write(_ text: String) { write(bytes: Array(text.utf8)) }
    public func write(bytes: [UInt8]) { try? stdin.fileHandleForWriting.write(contentsOf: bytes) }
    public func closeInput() { try? stdin.fileHandleForWriting.close() }

    /// Waits until stdout holds at least `count` whole lines (or `seconds` pass); returns how
    /// many it holds.
    @discardableResult
    public func waitForLines(_ count: Int, seconds: Double = 10) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let lines = collected.pipes.withLock { $0.out.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
            if lines >= count || Date() > deadline { return lines }
            usleep(200)
        }
    }

    /// What stdout holds so far, one message a whole line (a test reading replies as they come).
    public func messagesSoFar() -> [JSONValue] {
        let text = collected.pipes.withLock { String(decoding: $0.out, as: UTF8.self) }
        return text.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
    }

    public func wait() -> Result {
        collected.group.wait()
        process.waitUntilExit()
        let status = process.terminationStatus
        return collected.pipes.withLock {
            Result(stdout: Array($0.out), stderr: String(decoding: $0.err, as: UTF8.self), status: status)
        }
    }

    /// Runs the daemon over a whole input and waits for it to end.
    public static func run(_ arguments: [String] = [], input: [UInt8]) throws -> Result {
        let daemon = try DaemonProcess(arguments)
        daemon.write(bytes: input)
        daemon.closeInput()
        return daemon.wait()
    }

    public static func run(_ arguments: [String] = [], lines: [String]) throws -> Result {
        try run(arguments, input: Array(lines.map { $0 + "\n" }.joined().utf8))
    }
}

public enum Requests {
    public static func call(_ id: Int, _ method: String, _ params: String? = nil) -> String {
        if let params { return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"# }
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"#
    }

    public static let demoPayload =
        #"["{\"callbacks\":[{\"type\":\"NameCallback\",\"input\":[{\"name\":\"IDToken1\",\"value\":\"demo\"}]},{\"type\":\"PasswordCallback\",\"input\":[{\"name\":\"IDToken2\",\"value\":\"Ch4ng3it!\"}]}]}"]"#

    public static let login = [call(1, "start"), call(2, "login"), call(3, "next", demoPayload)]
}
