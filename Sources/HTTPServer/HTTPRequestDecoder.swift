/// HTTP/1.1 requests from a byte stream (RFC 9112), pure like the JSON-RPC framers: bytes in, in
/// any chunking, events out, no I/O. Bodies come by `Content-Length` or `chunked`. A request that
/// cannot be read is one `failure` event carrying the status to answer (400, 413, 431, 501,
/// 505); after it the decoder reports nothing more, because the stream has no reliable next
/// request boundary: the connection answers and closes.
public struct HTTPRequestDecoder {
    public struct Limits: Equatable, Sendable {
        /// The request line and headers together (and a chunked body's trailers).
        public var maxHeaderBytes = 16 * 1024
        public var maxHeaderCount = 100
        public var maxBodyBytes = 1024 * 1024

        public init(maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 1024 * 1024) {
            self.maxHeaderBytes = maxHeaderBytes
            self.maxHeaderCount = maxHeaderCount
            self.maxBodyBytes = maxBodyBytes
        }
    }

    public struct Failure: Error, Equatable, Sendable {
        public var status: Int
        public var message: String

        public init(status: Int, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    public enum Event: Equatable, Sendable {
        case request(HTTPRequest)
        /// The client sent `Expect: 100-continue` and waits before sending its body.
        case continueExpected
        case failure(Failure)
    }

    private enum State {
        case head
        case body(HTTPRequest, length: Int)
        case chunked(HTTPRequest, ChunkedBodyReader)
        case failed
    }

    public let limits: Limits
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the end of the head goes on, and where its current line began.
    private var scan = 0
    private var lineStart = 0
    private var state = State.head

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    public mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scan -= start
            lineStart -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// True when no part of a request is pending: a connection may close here without losing one.
    public var isIdle: Bool {
        if case .head = state { return buffer[start...].allSatisfy { $0 == 0x0D || $0 == 0x0A } }
        return false
    }

    public mutating func next() -> Event? {
        switch state {
        case .failed:
            return nil
        case .head:
            return nextHead()
        case .body(let request, let length):
            guard buffer.count - start >= length else { return nil }
            var complete = request
            complete.body = Array(buffer[start..<start + length])
            start += length
            resetHead()
            return .request(complete)
        case .chunked(var request, var reader):
            switch reader.read(buffer, from: &start, limits: limits) {
            case .needMore:
                state = .chunked(request, reader)
                return nil
            case .failed(let failure):
                return fail(failure)
            case .done:
                request.body = reader.body
                resetHead()
                return .request(request)
            }
        }
    }

    private mutating func resetHead() {
        state = .head
        scan = start
        lineStart = start
    }

    private mutating func fail(_ failure: Failure) -> Event {
        state = .failed
        buffer.removeAll()
        start = 0
        return .failure(failure)
    }

    private mutating func nextHead() -> Event? {
        // Empty lines before a request line are ignored (RFC 9112 §2.2).
        while start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A { start += 1 }
        if scan < start {
            scan = start
            lineStart = start
        }
        var end: Int?
        while scan < buffer.count {
            if buffer[scan] == 0x0A {
                let line = lineStart..<scan
                lineStart = scan + 1
                if line.isEmpty || (line.count == 1 && buffer[line.lowerBound] == 0x0D) {
                    end = scan + 1
                    scan += 1
                    break
                }
            }
            scan += 1
        }
        guard let end else {
            if buffer.count - start > limits.maxHeaderBytes {
                return fail(Failure(status: 431, "the request head is longer than \(limits.maxHeaderBytes) bytes"))
            }
            return nil
        }
        guard end - start <= limits.maxHeaderBytes else {
            return fail(Failure(status: 431, "the request head is longer than \(limits.maxHeaderBytes) bytes"))
        }
        let head = buffer[start..<end]
        start = end
        switch HTTPHead.parse(head, limits: limits) {
        case .failure(let failure):
            return fail(failure)
        case .success(let parsed):
            switch parsed.framing {
            case .none:
                resetHead()
                return .request(parsed.request)
            case .length(let length):
                state = .body(parsed.request, length: length)
                if parsed.expectsContinue, buffer.count == start { return .continueExpected }
                return next()
            case .chunked:
                state = .chunked(parsed.request, ChunkedBodyReader())
                if parsed.expectsContinue, buffer.count == start { return .continueExpected }
                return next()
            }
        }
    }
}
