import AuthBridgeCore

/// One client connection: reads requests, answers each in order, keeps the connection for the
/// next (keep-alive) and answers pipelined requests in the order they came, writing the answers
/// to one read's requests together. It closes when the client asks, after a request it cannot
/// read (answered first, with the decoder's status), when the client is idle past the limit, or
/// when a write does not finish within it.
enum HTTPConnection {
    static func serve(_ fd: Int32, configuration: HTTPServer.Configuration, handler: HTTPServer.Handler) {
        Sockets.setTimeouts(fd, seconds: configuration.idleSeconds)
        var decoder = HTTPRequestDecoder(limits: configuration.limits)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        var out: [UInt8] = []
        var closing = false
        while !closing {
            guard case .success(let count) = Sockets.receive(fd, into: buffer), count > 0 else { break }
            decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            while !closing, let event = decoder.next() {
                switch event {
                case .continueExpected:
                    out += HTTPResponse.continueBytes
                    // The client waits for this before it sends the body: it cannot wait for the batch.
                    if Sockets.sendAll(fd, out) != nil { closing = true }
                    out.removeAll(keepingCapacity: true)
                case .request(let request):
                    let response = handler(request)
                    let keepAlive = request.wantsKeepAlive && response.header("Connection")?.lowercased() != "close"
                    response.encode(into: &out, keepAlive: keepAlive, headOnly: request.method == "HEAD")
                    if !keepAlive { closing = true }
                case .failure(let failure):
                    logInfo("HTTP: refused a request: \(failure.status) \(failure.message)")
                    HTTPResponse(status: failure.status, text: failure.message + "\n").encode(into: &out, keepAlive: false)
                    closing = true
                }
            }
            if !out.isEmpty {
                if Sockets.sendAll(fd, out) != nil { break }
                out.removeAll(keepingCapacity: true)
            }
        }
        Sockets.closeGracefully(fd)
    }
}
