import AuthBridgeCore
import Dispatch
import Synchronization

/// What goes to the stdio host, in order: a face hands its bytes over with the world held and
/// never waits there, so a host that stops reading stdout never blocks the Host's other faces.
/// Whoever then waits for the bytes with the world released writes them on its own thread (the
/// stdio face after each chunk: no hand-over to another thread on the request path); bytes
/// nobody waits for (an HTTP unit's events) are written by a thread of the queue's own. A producer that wants back-pressure
/// waits with `wait(untilAtMost:)` after it has let go of the world: the stdio face waits for
/// its chunk's output to be written before it reads the next chunk (later requests wait in the
/// pipe, as they always have), and an HTTP unit that queued events waits while more than
/// `bound` bytes are queued (`waitForRoom`).
public final class OutputQueue: Sendable {
    /// Bytes queued past which an HTTP unit that queued events waits before it answers
    /// (`--max-queued-output`).
    public static let defaultBound = 1 << 20

    public let bound: Int

    private struct Waiter {
        let limit: Int
        let wake: DispatchSemaphore
    }

    private struct State {
        var chunks: [[UInt8]] = []
        /// Bytes handed over and not yet written (those being written included).
        var queued = 0
        /// A write failed (EPIPE: the host closed our stdout): what is queued and what comes
        /// later is dropped, as nobody is left to read it.
        var closed = false
        /// No more output will come: the thread ends once the queue is written.
        var finished = false
        /// No thread could be started: `enqueue` writes at once, as the writer always did.
        var inline = false
        /// A thread is writing taken chunks: the others leave the rest to it, so bytes keep their order.
        var writing = false
        var waiters: [Waiter] = []
    }

    private let fd: Int32
    private let state = Mutex(State())
    private let work = DispatchSemaphore(value: 0)

    public init(fd: Int32, bound: Int = defaultBound) {
        self.fd = fd
        self.bound = bound
        let started = Threads.detach { [self] in writeLoop() }
        if !started {
            logWarn("no thread for the stdout writer: output is written as it is queued")
            state.withLock { $0.inline = true }
        }
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Whether bytes are queued that are not written yet.
    public var isPending: Bool { state.withLock { $0.queued > 0 } }

    /// Hands bytes over; never blocks on the host. `wakeWriter` false: the caller will wait for
    /// them (`wait(untilAtMost:)`) and write them itself.
    public func enqueue(_ bytes: [UInt8], wakeWriter: Bool = true) {
        guard !bytes.isEmpty else { return }
        let (accepted, inline) = state.withLock { state in
            guard !state.closed else { return (false, false) }
            state.queued += bytes.count
            if !state.inline { state.chunks.append(bytes) }
            return (true, state.inline)
        }
        guard accepted else { return }
        if inline {
            write(bytes)
        } else if wakeWriter {
            work.signal()
        }
    }

    /// Blocks until at most `limit` bytes are queued (0: everything handed over is written), or
    /// the output is closed. Call it with the world released.
    public func wait(untilAtMost limit: Int) {
        let wake = DispatchSemaphore(value: 0)
        while true {
            enum Next { case ready, write([[UInt8]]), sleep }
            let next: Next = state.withLock { state in
                if state.closed || state.queued <= limit { return .ready }
                if !state.writing, !state.chunks.isEmpty { return .write(Self.take(&state)) }
                state.waiters.append(Waiter(limit: limit, wake: wake))
                return .sleep
            }
            switch next {
            case .ready: return
            case .write(let chunks): written(chunks)
            case .sleep:
                wake.wait()
                return
            }
        }
    }

    /// The queued chunks, for the caller to write; it is the writer until `written`.
    private static func take(_ state: inout State) -> [[UInt8]] {
        state.writing = true
        defer { state.chunks.removeAll() }
        return state.chunks
    }

    /// Writes chunks taken with `take`, then lets another writer go on.
    private func written(_ chunks: [[UInt8]]) {
        for chunk in chunks { write(chunk) }
        // The writer thread may have found this one writing when it was told to finish.
        let finished = state.withLock { state in
            state.writing = false
            return state.finished
        }
        if finished { work.signal() }
    }

    /// Blocks while more than `bound` bytes are queued.
    public func waitForRoom() { wait(untilAtMost: bound) }

    /// No more output: the thread writes what is queued and ends.
    public func finish() {
        state.withLock { $0.finished = true }
        work.signal()
    }

    private func writeLoop() {
        while true {
            work.wait()
            // Everything queued, including what arrives while it writes; a thread that took
            // chunks first (a waiting face) writes those, and this one finds them gone.
            while true {
                let (chunks, done): ([[UInt8]]?, Bool) = state.withLock { state in
                    guard !state.writing else { return (nil, false) }
                    guard !state.chunks.isEmpty else { return (nil, state.finished) }
                    return (Self.take(&state), false)
                }
                if done { return }
                guard let chunks else { break }
                written(chunks)
            }
        }
    }

    private func write(_ chunk: [UInt8]) {
        guard !isClosed else { return }
        let failed = chunk.withUnsafeBytes { FDIO.writeAll(fd, $0) } != nil
        let wake: [DispatchSemaphore] = state.withLock { state in
            guard !state.closed else { return [] }
            state.queued -= chunk.count
            if failed {
                state.closed = true
                state.chunks.removeAll()
                state.queued = 0
            }
            let ready = state.waiters.filter { state.closed || state.queued <= $0.limit }
            state.waiters.removeAll { state.closed || state.queued <= $0.limit }
            return ready.map(\.wake)
        }
        for semaphore in wake { semaphore.signal() }
    }
}
