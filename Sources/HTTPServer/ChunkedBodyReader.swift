/// A `Transfer-Encoding: chunked` body (RFC 9112 §7.1), read as far as the bytes go and resumed
/// when more arrive: size lines (extensions ignored), data, the CRLF after it, then trailer
/// fields, which are read past and dropped (nothing here needs them).
struct ChunkedBodyReader {
    enum Outcome {
        case needMore
        case done
        case failed(HTTPRequestDecoder.Failure)
    }

    private enum Phase {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers(bytes: Int)
    }

    /// A size line longer than this is not a size line.
    static let maxSizeLine = 1024

    private(set) var body: [UInt8] = []
    private var phase = Phase.size

    mutating func read(_ buffer: [UInt8], from start: inout Int, limits: HTTPRequestDecoder.Limits) -> Outcome {
        typealias Failure = HTTPRequestDecoder.Failure
        while true {
            switch phase {
            case .size:
                guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
                    if buffer.count - start > Self.maxSizeLine { return .failed(Failure(status: 400, "malformed chunk size")) }
                    return .needMore
                }
                var line = buffer[start..<newline]
                if line.last == 0x0D { line = line.dropLast() }
                let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 0x20 && $0 != 0x09 }
                guard !digits.isEmpty, digits.count <= 16, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                    return .failed(Failure(status: 400, "malformed chunk size"))
                }
                guard size <= limits.maxBodyBytes - body.count else {
                    return .failed(Failure(status: 413, "the body is longer than \(limits.maxBodyBytes) bytes"))
                }
                start = newline + 1
                phase = size == 0 ? .trailers(bytes: 0) : .data(remaining: size)
            case .data(let remaining):
                let available = min(remaining, buffer.count - start)
                body.append(contentsOf: buffer[start..<start + available])
                start += available
                guard available == remaining else {
                    phase = .data(remaining: remaining - available)
                    return .needMore
                }
                phase = .dataEnd
            case .dataEnd:
                guard buffer.count - start >= 1 else { return .needMore }
                if buffer[start] == 0x0A {
                    start += 1
                } else {
                    guard buffer.count - start >= 2 else { return .needMore }
                    guard buffer[start] == 0x0D, buffer[start + 1] == 0x0A else {
                        return .failed(Failure(status: 400, "chunk data longer than its size"))
                    }
                    start += 2
                }
                phase = .size
            case .trailers(let bytes):
                guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
                    if bytes + buffer.count - start > limits.maxHeaderBytes {
                        return .failed(Failure(status: 431, "trailer fields longer than \(limits.maxHeaderBytes) bytes"))
                    }
                    return .needMore
                }
                let length = newline - start
                start = newline + 1
                if length == 0 || (length == 1 && buffer[newline - 1] == 0x0D) { return .done }
                guard bytes + length <= limits.maxHeaderBytes else {
                    return .failed(Failure(status: 431, "trailer fields longer than \(limits.maxHeaderBytes) bytes"))
                }
                phase = .trailers(bytes: bytes + length + 1)
            }
        }
    }
}
