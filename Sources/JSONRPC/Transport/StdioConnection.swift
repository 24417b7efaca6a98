import AuthBridgeCore

/// Reads the host's bytes with blocking read(2) calls (no polling) and turns them into frame
/// events. Each chunk read is handled inside one transaction of the caller's, never while
/// blocked in read(2), so whoever else takes the same lock (another face, a signal handler
/// shutting down) finds no chunk half handled.
public final class StdioConnection {
    public enum End: Equatable, Sendable {
        case endOfInput
        case stopped
        case readFailed(FDIO.Failure)
        case outputClosed
    }

    /// Runs one chunk's work. The Host's makes the chunk's changes durable and then flushes
    /// `writer` before it returns; the default just flushes.
    public typealias Transaction = (_ work: () -> Void) -> Void

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

    /// Runs until input ends, `handle` asks to stop (returns false), or output is gone.
    public func run(transaction: Transaction? = nil, handle: (FrameEvent) -> Bool) -> End {
        let transact = transaction ?? { [writer] work in
            work()
            writer.flush()
        }
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            switch FDIO.read(inputFD, into: buffer) {
            case .success(let read): count = read
            case .failure(let failure): return .readFailed(failure)
            }
            var proceed = true
            transact {
                if count == 0 {
                    if let event = framer?.finish() { _ = handle(event) }
                    return
                }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                if framer == nil { select(Framing.detect(firstByte: chunk[0])) }
                framer!.append(chunk)
                while proceed, let event = framer!.next() {
                    proceed = handle(event)
                }
            }
            if count == 0 { return .endOfInput }
            if writer.isClosed { return .outputClosed }
            if !proceed { return .stopped }
        }
    }
}
