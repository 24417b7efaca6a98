#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// TCP over IPv4 for the HTTP face: listen, accept, bounded reads and writes, connect (tests).
/// Like `FDIO`, this is where the platform's socket calls live, so no other target imports the C
/// library. Every descriptor is close-on-exec; accepted sockets have Nagle off (a response is
/// written in one call, and waiting for an ACK would add 40 ms to every keep-alive round trip).
public enum Sockets {
    /// A dotted IPv4 address and a port; `0` asks the kernel for a free one.
    public struct Endpoint: Equatable, Sendable, CustomStringConvertible {
        public var host: String
        public var port: UInt16

        public init(host: String, port: UInt16) {
            self.host = host
            self.port = port
        }

        /// 127.0.0.0/8: reachable only from this machine.
        public var isLoopback: Bool { Sockets.ipv4(host).map { $0 >> 24 == 127 } ?? false }
        public var description: String { "\(host):\(port)" }
    }

    /// The address in host byte order, or nil when `text` is not a dotted IPv4 address.
    public static func ipv4(_ text: String) -> UInt32? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return UInt32(bigEndian: address.s_addr)
    }

    /// The dotted IPv4 address of a connected socket's peer; nil when it has none or is not IPv4.
    public static func peerAddress(_ fd: Int32) -> String? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard status == 0, Int32(address.sin_family) == AF_INET else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func socketAddress(_ endpoint: Endpoint) -> sockaddr_in? {
        guard let host = ipv4(endpoint.host) else { return nil }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = endpoint.port.bigEndian
        address.sin_addr.s_addr = host.bigEndian
        return address
    }

    /// A listening socket bound to `endpoint`, and the port it got (the chosen one for port 0).
    public static func listen(
        on endpoint: Endpoint, backlog: Int32 = 128
    ) -> Result<(fd: Int32, port: UInt16), FDIO.Failure> {
        guard var address = socketAddress(endpoint) else { return .failure(FDIO.Failure(code: EINVAL)) }
        let fd = streamSocket()
        guard fd >= 0 else { return .failure(.last) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, systemListen(fd, backlog) == 0 else {
            let failure = FDIO.Failure.last
            FDIO.close(fd)
            return .failure(failure)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return .success((fd, UInt16(bigEndian: actual.sin_port)))
    }

    /// Waits for a connection; retries EINTR and the transient errors of a connection that died
    /// in the queue. Fails when the listening socket was shut down (`stopListening`).
    public static func accept(_ listener: Int32) -> Result<Int32, FDIO.Failure> {
        while true {
            let fd = systemAccept(listener)
            if fd >= 0 {
                // accept4 is not exported to Swift (and macOS has none); the daemon spawns no
                // children while serving, so setting close-on-exec right after is as good.
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                noSignalOnWrite(fd)
                var on: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                return .success(fd)
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            default: return .failure(.last)
            }
        }
    }

    /// Wakes a thread blocked in `accept` on this socket, and makes every later `accept` on it
    /// fail. It stays open: the owner closes it once no thread can call `accept` with it, since
    /// a closed descriptor's number is soon another socket's, which a late `accept` would serve.
    public static func stopListening(_ listener: Int32) {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// Bounds how long one read and one write may wait: a peer that sends nothing (idle) or reads
    /// nothing (stuck) then gets its connection closed instead of holding a thread.
    public static func setTimeouts(_ fd: Int32, seconds: Double) {
        var time = timeout(seconds)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Bounds only the next reads: what is left of a deadline, while writes keep their limit.
    public static func setReceiveTimeout(_ fd: Int32, seconds: Double) {
        var time = timeout(seconds)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// At least a microsecond: a zero timeval would mean no limit at all.
    private static func timeout(_ seconds: Double) -> timeval {
        let micros = max(1, Int(min(seconds, 1e9) * 1_000_000))
        var time = timeval()
        // The field types differ (tv_usec is Int on Linux, Int32 on macOS).
        time.tv_sec = .init(micros / 1_000_000)
        time.tv_usec = .init(micros % 1_000_000)
        return time
    }

    /// One recv(2): the byte count, 0 when the peer closed. A timeout is a failure (`isTimeout`).
    public static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, FDIO.Failure> {
        while true {
            let count = recv(fd, buffer.baseAddress!, buffer.count, 0)
            if count >= 0 { return .success(count) }
            if errno != EINTR { return .failure(.last) }
        }
    }

    /// Sends every byte; a timeout or a reset peer is a failure. No SIGPIPE (MSG_NOSIGNAL on
    /// Linux; SO_NOSIGPIPE, set when the socket is made, on macOS).
    @discardableResult
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> FDIO.Failure? {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, sendFlags)
                if sent > 0 {
                    offset += sent
                } else if sent < 0, errno == EINTR {
                    continue
                } else {
                    return sent < 0 ? .last : FDIO.Failure(code: EIO)
                }
            }
            return nil
        }
    }

    /// Ends a connection so that the peer reads everything sent before it: stop sending, read
    /// and drop what the peer still sends (at most `linger` seconds), then close. Closing at once
    /// with unread input would reset the connection, and the peer could lose the last response.
    public static func closeGracefully(_ fd: Int32, linger: Double = 1) {
        shutdown(fd, Int32(SHUT_WR))
        setTimeouts(fd, seconds: linger)
        var scratch = [UInt8](repeating: 0, count: 4096)
        var drained = 0
        while drained < 1 << 20 {
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { break }
            drained += count
        }
        FDIO.close(fd)
    }

    /// A client connection (tests and the benchmark's own checks).
    public static func connect(to endpoint: Endpoint) -> Result<Int32, FDIO.Failure> {
        guard var address = socketAddress(endpoint) else { return .failure(FDIO.Failure(code: EINVAL)) }
        let fd = streamSocket()
        guard fd >= 0 else { return .failure(.last) }
        noSignalOnWrite(fd)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let failure = FDIO.Failure.last
            FDIO.close(fd)
            return .failure(failure)
        }
        return .success(fd)
    }
}

extension FDIO.Failure {
    /// A socket's read or write limit passed (SO_RCVTIMEO, SO_SNDTIMEO) before any byte moved.
    public var isTimeout: Bool { code == EAGAIN || code == EWOULDBLOCK }
}

// The C library's names, reachable here where `Sockets`' own `listen`, `accept`, `connect` shadow
// them, and the calls that differ between Linux and macOS.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func systemAccept(_ fd: Int32) -> Int32 { accept(fd, nil, nil) }
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

#if canImport(Glibc)
    /// A close-on-exec TCP socket.
    private func streamSocket() -> Int32 {
        socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }
    private let sendFlags = Int32(MSG_NOSIGNAL)
    /// Linux asks per send (MSG_NOSIGNAL).
    private func noSignalOnWrite(_ fd: Int32) {}
#else
    /// A close-on-exec TCP socket: macOS has no SOCK_CLOEXEC, so it is set right after.
    private func streamSocket() -> Int32 {
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fd
    }
    private let sendFlags: Int32 = 0
    /// macOS has no MSG_NOSIGNAL; the socket itself is told not to raise SIGPIPE.
    private func noSignalOnWrite(_ fd: Int32) {
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    }
#endif
