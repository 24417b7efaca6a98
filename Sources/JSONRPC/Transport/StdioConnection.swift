#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AuthBridgeCore

/// Reads the host's bytes with blocking read(2) calls (no polling), turns them into frame events
/// and hands each to the handler with the writer to answer on. Output produced while one chunk is
/// handled is flushed before the next read blocks, so nothing waits in a buffer.
public final class StdioConnection {
    public enum End: Equatable, Sendable {
        case endOfInput
        case stopped
        case readFailed(errno: Int32)
        case outputClosed
    }

    public let writer: FrameWriter
    private let inputFD: Int32
    private let maxFrameBytes: Int
    private var framer: (any Framer)?
    public private(set) var framing: Framing?

    public init(inputFD: Int32, outputFD: Int32, maxFrameBytes: Int, framing: Framing? = nil) {
        self.inputFD = inputFD
        self.maxFrameBytes = maxFrameBytes
        self.writer = FrameWriter(fd: outputFD)
        if let framing { select(framing) }
    }

    private func select(_ framing: Framing) {
        self.framing = framing
        framer = framing.makeFramer(maxFrameBytes: maxFrameBytes)
        writer.framing = framing
        logDebug("framing: \(framing.rawValue)")
    }

    /// Runs until input ends, the handler asks to stop (returns false), or output is gone.
    /// `lock` is held while a chunk is handled, never while blocked in read(2): whoever else
    /// takes it (a signal handler shutting down) finds no request half done.
    public func run(lock: Lock, handle: (FrameEvent, FrameWriter) -> Bool) -> End {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(inputFD, buffer.baseAddress!, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                return .readFailed(errno: errno)
            }
            lock.lock()
            defer { lock.unlock() }
            if count == 0 {
                if let event = framer?.finish() { _ = handle(event, writer) }
                writer.flush()
                return .endOfInput
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            if framer == nil { select(Framing.detect(firstByte: chunk[0])) }
            framer!.append(chunk)
            var proceed = true
            while proceed, let event = framer!.next() {
                proceed = handle(event, writer)
            }
            writer.flush()
            if writer.isClosed { return .outputClosed }
            if !proceed { return .stopped }
        }
    }
}

/// Process-level stdio discipline (DESIGN.md §3.2).
public enum ProcessStdio {
    /// Duplicates fd 1 for the protocol and points fd 1 at stderr, so a stray print cannot
    /// corrupt the stream. Returns the protocol's descriptor.
    public static func takeOverStdout() -> Int32 {
        let protocolFD = dup(STDOUT_FILENO)
        precondition(protocolFD >= 0, "dup(stdout) failed")
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return protocolFD
    }

    /// A host that goes away must not kill us mid-write; EPIPE is handled where it happens.
    public static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }
}
