import AuthBridgeCore

/// One client connection: reads requests, answers each in order, keeps the connection for the
/// next (keep-alive) and answers pipelined requests in the order they came, writing the answers
/// to one read's requests together. It closes when the client asks, after a request it cannot
/// read (answered first, with the decoder's status), when the client is idle past the limit, or
/// when a write does not finish within it.
///
/// A request, once its first byte has come, must be in whole (head and body) within
/// `requestSeconds`, however steadily its bytes trickle in: a client that sends a byte now and
/// then would otherwise hold a connection, and with 64 of them every slot. Past that deadline, or
/// when a begun request stalls past the idle limit, the client gets 408 and the connection closes
/// (RFC 9110 §15.5.9), as an idle one between requests closes without an answer.
enum HTTPConnection {
    static func serve(_ fd: Int32, configuration: HTTPServer.Configuration, handler: HTTPServer.Handler) {
        Sockets.setTimeouts(fd, seconds: configuration.idleSeconds)
        let peer = Sockets.peerAddress(fd)
        var decoder = HTTPRequestDecoder(limits: configuration.limits)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        var out: [UInt8] = []
        var closing = false
        /// When the request being read must be in; nil between requests.
        var deadline: ContinuousClock.Instant?
        while !closing {
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else {
                    timedOut(fd, configuration)
                    break
                }
                Sockets.setReceiveTimeout(fd, seconds: min(configuration.idleSeconds, left.seconds))
            }
            let received = Sockets.receive(fd, into: buffer)
            if case .failure(let failure) = received, failure.isTimeout, deadline != nil {
                timedOut(fd, configuration)
                break
            }
            guard case .success(let count) = received, count > 0 else { break }
            decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            while !closing, let event = decoder.next() {
                switch event {
                case .continueExpected:
                    out += HTTPResponse.continueBytes
                    // The client waits for this before it sends the body: it cannot wait for the batch.
                    if Sockets.sendAll(fd, out) != nil { closing = true }
                    out.removeAll(keepingCapacity: true)
                case .request(var request):
                    request.peer = peer
                    let response = handler(request)
                    if case .stream(let stream) = response.delivery {
                        response.encodeStreamHead(into: &out)
                        if Sockets.sendAll(fd, out) == nil { pump(fd, stream, configuration) }
                        stream.close()
                        out.removeAll()
                        closing = true
                        continue
                    }
                    if response.delivery != .now {
                        // Earlier pipelined answers leave first; then this one waits, or never comes.
                        if !out.isEmpty, Sockets.sendAll(fd, out) != nil { closing = true }
                        out.removeAll(keepingCapacity: true)
                        guard !closing, deliverLate(fd, response.delivery, buffer: buffer) else {
                            closing = true
                            continue
                        }
                    }
                    let keepAlive = request.wantsKeepAlive && response.header("Connection")?.lowercased() != "close"
                    response.encode(into: &out, keepAlive: keepAlive, headOnly: request.method == "HEAD")
                    if !keepAlive { closing = true }
                case .failure(let failure):
                    logInfo("HTTP: refused a request: \(failure.status) \(failure.message)")
                    HTTPResponse(status: failure.status, text: failure.message + "\n").encode(
                        into: &out, keepAlive: false)
                    closing = true
                }
            }
            if !out.isEmpty {
                if Sockets.sendAll(fd, out) != nil { break }
                out.removeAll(keepingCapacity: true)
            }
            // The clock starts with the read that brings a request's first bytes (the previous
            // request's handling, when pipelined, is not the client's time).
            if decoder.isIdle {
                if deadline != nil { Sockets.setReceiveTimeout(fd, seconds: configuration.idleSeconds) }
                deadline = nil
            } else if deadline == nil {
                deadline = ContinuousClock.now.advanced(by: .seconds(configuration.requestSeconds))
            }
        }
        Sockets.closeGracefully(fd)
    }

    /// A response whose delivery a fault changed (a handler's wait happens here, on the
    /// connection's thread, never while the handler holds anything): true when it is then sent,
    /// false when the connection closes without it.
    private static func deliverLate(
        _ fd: Int32, _ delivery: HTTPResponse.Delivery, buffer: UnsafeMutableRawBufferPointer
    ) -> Bool {
        switch delivery {
        case .now, .stream: return true
        case .after(let seconds):
            ProcessControl.sleep(seconds: seconds)
            return true
        case .drop: return false
        case .silence(let seconds):
            // Nothing is answered until the time is up or the client gives up first (it closes).
            let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
            while true {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return false }
                Sockets.setReceiveTimeout(fd, seconds: left.seconds)
                guard case .success(let count) = Sockets.receive(fd, into: buffer), count > 0 else { return false }
            }
        }
    }

    /// Writes what the stream gets until it ends or the client leaves (a write fails).
    private static func pump(_ fd: Int32, _ stream: HTTPStream, _ configuration: HTTPServer.Configuration) {
        while let chunks = stream.take(waiting: configuration.streamKeepAliveSeconds) {
            let bytes = chunks.isEmpty ? Array(":\n\n".utf8) : chunks.flatMap { $0 }
            if Sockets.sendAll(fd, bytes) != nil { return }
        }
    }

    private static func timedOut(_ fd: Int32, _ configuration: HTTPServer.Configuration) {
        logInfo("HTTP: a request did not arrive within \(configuration.requestSeconds) s: 408")
        var out: [UInt8] = []
        let text = "the request did not arrive within \(configuration.requestSeconds) s\n"
        HTTPResponse(status: 408, text: text).encode(into: &out, keepAlive: false)
        Sockets.sendAll(fd, out)
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
