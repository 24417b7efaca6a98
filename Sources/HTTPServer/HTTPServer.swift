import AuthBridgeCore
import Synchronization

/// An HTTP/1.1 server on one TCP endpoint: it knows requests and responses, never what they mean
/// (no JSON-RPC, no auth: the handler decides).
///
/// One thread per connection, at most `maxConnections` of them, rather than a poll loop: every
/// request of this daemon ends in the Host's one transaction at a time, so a poll loop would win
/// no throughput, while a blocking thread per connection keeps a connection's state on its stack,
/// gets the idle limit from SO_RCVTIMEO, and lets a slow client stall only its own thread, for at
/// most the request deadline. A connection past the bound is answered 503 and closed at once.
public final class HTTPServer: Sendable {
    public struct Configuration: Sendable {
        public var endpoint = Sockets.Endpoint(host: "127.0.0.1", port: 0)
        public var limits = HTTPRequestDecoder.Limits()
        public var maxConnections = 64
        /// How long a connection may wait for the next bytes of a request, or for a write.
        public var idleSeconds: Double = 30
        /// How long one request may take to arrive, head and body, from its first byte (408 past it).
        public var requestSeconds: Double = Self.defaultRequestSeconds
        public static let defaultRequestSeconds: Double = 10
        /// How long a streamed response (`HTTPStream`) may stay silent before a comment line is
        /// written, to learn whether the client is still there.
        public var streamKeepAliveSeconds: Double = 15

        public init() {}
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    public struct StartFailure: Error, Sendable {
        public let message: String
        public init(message: String) { self.message = message }
    }

    public let configuration: Configuration
    /// The port bound: the one asked for, or the free one the kernel chose for port 0.
    public let port: UInt16
    private let listener: Int32
    /// Connections being served, and whether `stop` was called.
    private let state = Mutex((open: 0, stopped: false))

    /// Binds and listens; serving starts with `serve` or `start`. Binding first lets a caller
    /// know the port (for port 0) before it builds what will answer the requests.
    public init(configuration: Configuration) throws(StartFailure) {
        switch Sockets.listen(on: configuration.endpoint) {
        case .success(let bound):
            listener = bound.fd
            port = bound.port
        case .failure(let failure):
            throw StartFailure(message: "cannot listen on \(configuration.endpoint): \(failure.text)")
        }
        self.configuration = configuration
    }

    /// The listening socket closes only here: the accepting thread holds the server, so none is left.
    deinit {
        FDIO.close(listener)
    }

    /// `http://host:port`, the origin clients use.
    public var origin: String { "http://\(configuration.endpoint.host):\(port)" }

    /// Connections being served now.
    public var connectionCount: Int { state.withLock { $0.open } }

    /// Accepts connections on the calling thread until `stop`; `handler` answers every request,
    /// on the connection's thread.
    public func serve(_ handler: @escaping Handler) {
        while case .success(let fd) = Sockets.accept(listener) {
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped, state.open < configuration.maxConnections else { return false }
                state.open += 1
                return true
            }
            guard admitted else {
                refuse(fd)
                continue
            }
            let started = Threads.detach { [self] in
                HTTPConnection.serve(fd, configuration: configuration, handler: handler)
                state.withLock { $0.open -= 1 }
            }
            if !started {
                state.withLock { $0.open -= 1 }
                refuse(fd)
            }
        }
    }

    /// Serves on a thread of its own.
    public func start(_ handler: @escaping Handler) {
        Threads.detach { [self] in serve(handler) }
    }

    /// Stops accepting; connections being served finish their current exchange as usual.
    public func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { Sockets.stopListening(listener) }
    }

    private func refuse(_ fd: Int32) {
        logWarn("HTTP: refused a connection: \(configuration.maxConnections) connections are open")
        var out: [UInt8] = []
        HTTPResponse(status: 503, text: "too many connections\n").encode(into: &out, keepAlive: false)
        Sockets.sendAll(fd, out)
        Sockets.closeGracefully(fd, linger: 0.2)
    }
}
