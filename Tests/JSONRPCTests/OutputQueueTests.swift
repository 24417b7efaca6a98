import AuthBridgeCore
import Dispatch
import Glibc
import JSONRPC
import Synchronization
import Testing

/// The output queue as an HTTP unit meets it: what the unit does after its wait (send the
/// response) comes after the events it handed over, however far behind the host is reading; a
/// wait for nothing handed over never waits for the host.
@Suite struct OutputQueueTests {
    /// A pipe whose read end the test reads, as the stdio host would, only when it chooses to.
    final class Host: Sendable {
        let readFD: Int32
        let writeFD: Int32
        private let received = Mutex<[UInt8]>([])
        private let ended = DispatchSemaphore(value: 0)

        init() throws {
            var fds: [Int32] = [0, 0]
            try #require(pipe(&fds) == 0)
            readFD = fds[0]
            writeFD = fds[1]
        }

        /// Starts reading until the write end is closed.
        func startReading() throws {
            let started = Threads.detach { [self] in
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
                defer { buffer.deallocate() }
                while case .success(let count) = FDIO.read(readFD, into: buffer), count > 0 {
                    received.withLock { $0 += buffer[0..<count] }
                }
                ended.signal()
            }
            try #require(started)
        }

        /// Every byte, once the write end is closed.
        func all() -> [UInt8] {
            FDIO.close(writeFD)
            ended.wait()
            FDIO.close(readFD)
            return received.withLock { $0 }
        }
    }

    /// More than any pipe holds: the queue's writer blocks on it until the host reads.
    static let backlog = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    static let event = Array(#"{"jsonrpc":"2.0","method":"LOGOUT_EVENT","params":{"reason":"session_ended"}}"#.utf8)
    static let response = Array("HTTP/1.1 200 OK\r\n".utf8)

    @Test func whatAUnitDoesAfterItsWaitComesAfterTheEventsItHandedOver() throws {
        let host = try Host()
        let writer = FrameWriter(fd: host.writeFD)
        // The host is behind: a backlog its stdout cannot hold is queued before the unit's events.
        writer.send(Self.backlog)
        writer.flush()
        writer.send(Self.event)
        writer.flush()
        let wait = writer.writtenWait
        // The host reads from now on; the unit waits, then "answers" on the same stream, so any
        // answer that overtook the event would stand before it.
        try host.startReading()
        wait()
        #expect(FDIO.writeAll(host.writeFD, Self.response) == nil)
        let all = host.all()
        #expect(all.count == Self.backlog.count + Self.event.count + 2 + Self.response.count)
        #expect(Array(all.suffix(Self.event.count + 1 + Self.response.count)) == Self.event + [0x0A] + Self.response)
        #expect(all.prefix(Self.backlog.count) == Self.backlog[...])
    }

    /// Whichever thread writes them (the queue's own, or the waiting unit when nobody else is
    /// writing), the unit's bytes are in the host's pipe the moment its wait returns.
    @Test(arguments: [true, false]) func aUnitsBytesAreInThePipeWhenItsWaitReturns(wakeWriter: Bool) throws {
        let host = try Host()
        let writer = FrameWriter(fd: host.writeFD)
        writer.send(Self.event)
        writer.flush(wakeWriter: wakeWriter)
        writer.writtenWait()
        try #require(fcntl(host.readFD, F_SETFL, O_NONBLOCK) == 0)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(host.readFD, &buffer, buffer.count)
        #expect(Array(buffer.prefix(max(count, 0))) == Self.event + [0x0A])
        FDIO.close(host.writeFD)
        FDIO.close(host.readFD)
    }

    @Test func aWaitForNothingHandedOverDoesNotWaitForTheHost() throws {
        let host = try Host()
        let writer = FrameWriter(fd: host.writeFD)
        let nothing = writer.flush()
        let wait = writer.writtenWait
        // Handed over after the marks: the host does not read it until the waits are over.
        writer.send(Self.backlog)
        writer.flush()
        wait()
        writer.waitUntilWritten(nothing)
        #expect(writer.isAnswering, "the backlog is still queued")
        try host.startReading()
        writer.waitUntilWritten()
        #expect(!writer.isAnswering)
        #expect(host.all().count == Self.backlog.count + 1)
    }
}
