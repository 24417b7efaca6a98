import AuthBridgeCore
import Foundation
import Host
import JSONRPC
import RPCFace
import Synchronization

/// The stdio face of an in-process Host, fed a whole input and read back: the requests are
/// written to a file that becomes the face's stdin, its stdout goes to another, so a test sees
/// exactly the frames a host would, without spawning the binary.
public enum InProcessSession {
    public static func exchange(_ face: RPCFace, lines: [String]) throws -> [JSONValue] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authbridge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in").path
        let output = directory.appendingPathComponent("out").path
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: input))
        guard case .success(let inputFD) = FDIO.open(input, .readOnly),
            case .success(let outputFD) = FDIO.open(output, [.writeOnly, .create, .truncate])
        else { throw CocoaError(.fileNoSuchFile) }
        defer {
            FDIO.close(inputFD)
            FDIO.close(outputFD)
        }
        _ = face.serve(input: inputFD, output: outputFD, maxFrameBytes: 1 << 20, framing: nil)
        return try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map {
            try JSONParser.parse(String($0))
        }
    }
}

/// Runs `body` on `count` threads released at the same instant; returns their results in order.
public func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let box = ResultBox<T>()
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            start.wait()
            let value = body(index)
            box.results.withLock { $0[index] = value }
            group.leave()
        }.start()
    }
    for _ in 0..<count { start.signal() }
    group.wait()
    return box.results.withLock { results in (0..<count).map { results[$0]! } }
}

private final class ResultBox<T: Sendable>: Sendable {
    let results = Mutex<[Int: T]>([:])
}
