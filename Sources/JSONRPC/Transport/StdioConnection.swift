import AuthBridgeCore

/// Reads the host's bytes with blocking read(2) calls (no polling) and turns them into frame
/// events. Everything it does to its `writer` (choosing the framing, the flush after each chunk)
/// goes through the caller's `output`, as the caller's own writes must: the Host's events reach
/// the same writer from whichever face caused them, so its owner serializes all of them. Waiting
/// for the host to read happens outside `output`: the next chunk is read once the last one's
/// output is written (later requests wait in the pipe).
public final class StdioConnection {
    public enum End: Equatable, Sendable {
        case endOfInput
        case stopped
        case readFailed(FDIO.Failure)
        case outputClosed
    }

    /// Runs a write to `writer` in its owner's order (the Host's, with the world held); by
    /// default, at once.
    public typealias Output = (_ write: () -> Void) -> Void

    public let writer: FrameWriter
    private let inputFD: Int32
    private let maxFrameBytes: Int
    private var framer: (any Framer)?
    public private(set) var framing: Framing?

    public init(
        inputFD: Int32, outputFD: Int32, maxFrameBytes: Int, framing: Framing? = nil,
        maxQueuedOutput: Int = OutputQueue.defaultBound
    ) {
        self.inputFD = inputFD
        self.maxFrameBytes = maxFrameBytes
        self.writer = FrameWriter(fd: outputFD, bound: maxQueuedOutput)
        if let framing { select(framing) }
    }

    private func select(_ framing: Framing) {
        self.framing = framing
        framer = framing.makeFramer(maxFrameBytes: maxFrameBytes)
        writer.framing = framing
        logDebug("framing: \(framing.rawValue)")
    }

    /// Runs until input ends, `handle` asks to stop (returns false), or output is gone. What a
    /// chunk of input caused leaves in one write, after the chunk is handled.
    public func run(output: Output? = nil, handle: (FrameEvent) -> Bool) -> End {
        let output = output ?? { write in write() }
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
            if count == 0 {
                if let event = framer?.finish() { _ = handle(event) }
            } else {
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                let detected = framer == nil ? Framing.detect(firstByte: chunk[0]) : nil
                output {
                    if let detected { self.select(detected) }
                    self.writer.isAnswering = true
                }
                framer!.append(chunk)
                while proceed, let event = framer!.next() {
                    proceed = handle(event)
                    // A burst whose answers the host is not reading waits here, the world released.
                    writer.waitForRoom()
                }
            }
            var mark: OutputQueue.Mark?
            output {
                // Written below by this thread, once the world is released.
                mark = self.writer.flush(wakeWriter: false)
                self.writer.isAnswering = false
            }
            // The chunk's output is written before the next chunk is read, as the one write did
            // before; the wait is outside the world, so other faces go on while the host is slow.
            writer.waitUntilWritten(mark)
            let closed = writer.isClosed
            if count == 0 { return .endOfInput }
            if closed { return .outputClosed }
            if !proceed { return .stopped }
        }
    }
}
