/// LSP-style framing: a header block (`Content-Length: N`, other headers ignored, names
/// case-insensitive) ended by `\r\n\r\n`, then exactly N bytes of body.
public struct ContentLengthFramer: Framer {
    public let maxFrameBytes: Int
    /// A header block longer than this cannot be real; it is reported and skipped.
    public static let maxHeaderBytes = 8 * 1024

    private enum State {
        case header
        case body(length: Int)
        case skipping(remaining: Int)
    }

    private var buffer: [UInt8] = []
    private var start = 0
    private var state = State.header

    public init(maxFrameBytes: Int) {
        self.maxFrameBytes = maxFrameBytes
    }

    public mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    public mutating func next() -> FrameEvent? {
        while true {
            switch state {
            case .skipping(let remaining):
                let available = buffer.count - start
                if available < remaining {
                    state = .skipping(remaining: remaining - available)
                    start = buffer.count
                    return nil
                }
                start += remaining
                state = .header
            case .body(let length):
                guard buffer.count - start >= length else { return nil }
                let body = Array(buffer[start..<start + length])
                start += length
                state = .header
                return .frame(body)
            case .header:
                guard let end = findHeaderEnd() else {
                    if buffer.count - start > Self.maxHeaderBytes {
                        start = buffer.count
                        return .malformed("header block longer than \(Self.maxHeaderBytes) bytes")
                    }
                    return nil
                }
                let header = String(decoding: buffer[start..<end], as: UTF8.self)
                start = end + 4
                var parsed = Self.contentLength(in: header)
                var skipped: String?
                if case .invalid(let reason) = parsed, let resumed = Self.resynchronized(header) {
                    // A wrong length upstream leaves the rest of a body in front of the next
                    // header: skip it, as LSP servers do, and go on with that header.
                    skipped = "\(reason); skipped \(resumed.skipped) bytes up to the next Content-Length header"
                    parsed = resumed.parse
                }
                switch parsed {
                case .invalid(let reason):
                    return .malformed(reason)
                case .length(let length) where length > maxFrameBytes:
                    state = .skipping(remaining: length)
                    return skipped.map { .malformed($0) } ?? .oversized(limit: maxFrameBytes)
                case .length(let length):
                    state = .body(length: length)
                    if let skipped { return .malformed(skipped) }
                }
            }
        }
    }

    public mutating func finish() -> FrameEvent? {
        let pending = buffer.count - start
        buffer.removeAll()
        start = 0
        if case .skipping = state { return nil }
        state = .header
        return pending > 0 ? .truncated(byteCount: pending) : nil
    }

    public func encode(_ body: [UInt8], into out: inout [UInt8]) {
        out.append(contentsOf: "Content-Length: \(body.count)\r\n\r\n".utf8)
        out.append(contentsOf: body)
    }

    private func findHeaderEnd() -> Int? {
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 0x0D, buffer[index + 1] == 0x0A, buffer[index + 2] == 0x0D, buffer[index + 3] == 0x0A {
                return index
            }
            index += 1
        }
        return nil
    }

    enum HeaderParse: Equatable {
        case length(Int)
        case invalid(String)
    }

    /// The header block from its last `Content-Length:` on, when that header is glued to bytes
    /// that are not headers (the rest of a body whose length was given too short). A header at
    /// the start of a line is a header like the others: no resynchronization then.
    static func resynchronized(_ header: String) -> (skipped: Int, parse: HeaderParse)? {
        guard let found = header.lastCaseInsensitiveRange(of: "content-length:"),
            found.lowerBound != header.startIndex, !header[..<found.lowerBound].hasSuffix("\r\n")
        else { return nil }
        let rest = String(header[found.lowerBound...])
        let parse = contentLength(in: rest)
        guard case .length = parse else { return nil }
        return (header.utf8.count - rest.utf8.count, parse)
    }

    static func contentLength(in header: String) -> HeaderParse {
        var length: Int?
        for line in header.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { return .invalid("header line without ':'") }
            let name = line[..<colon].trimmingSpaces().lowercased()
            guard name == "content-length" else { continue }
            let value = line[line.index(after: colon)...].trimmingSpaces()
            guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }),
                let parsed = Int(value), parsed <= UInt32.max
            else { return .invalid("Content-Length is not a valid length: \(value.prefix(32))") }
            if let length, length != parsed {
                return .invalid("conflicting Content-Length headers: \(length) and \(parsed)")
            }
            length = parsed
        }
        guard let length else { return .invalid("missing Content-Length header") }
        return .length(length)
    }
}

extension String {
    /// The last range of `needle`, compared ASCII case-insensitively.
    fileprivate func lastCaseInsensitiveRange(of needle: String) -> Range<String.Index>? {
        let haystack = Array(lowercased().utf8)
        let target = Array(needle.lowercased().utf8)
        guard haystack.count >= target.count else { return nil }
        var index = haystack.count - target.count
        while index >= 0 {
            if haystack[index..<index + target.count].elementsEqual(target) {
                let lower = utf8.index(utf8.startIndex, offsetBy: index)
                let upper = utf8.index(lower, offsetBy: target.count)
                return lower..<upper
            }
            index -= 1
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
