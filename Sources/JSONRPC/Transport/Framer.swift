/// What a framer finds in the byte stream. Framers are pure: bytes in, events out, no I/O,
/// so every chunking of the same bytes gives the same events.
public enum FrameEvent: Equatable, Sendable {
    /// One complete message body.
    case frame([UInt8])
    /// A message longer than the limit; its bytes were discarded.
    case oversized(limit: Int)
    /// Framing that cannot be understood (a bad Content-Length header block).
    case malformed(String)
    /// Input ended inside a message; its bytes (this many) were dropped.
    case truncated(byteCount: Int)
}

/// Splits a byte stream into message bodies, and wraps outgoing bodies the same way.
public protocol Framer {
    mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8
    /// The next event from what was appended so far, or nil until more bytes arrive.
    mutating func next() -> FrameEvent?
    /// End of input: reports a partial message, if one was pending.
    mutating func finish() -> FrameEvent?
    func encode(_ body: [UInt8], into out: inout [UInt8])
}

/// The two framings the daemon speaks. Which one is chosen by the first byte the host sends.
public enum Framing: String, Sendable {
    case ndjson
    case contentLength = "content-length"

    public static func detect(firstByte: UInt8) -> Framing {
        firstByte == UInt8(ascii: "C") ? .contentLength : .ndjson
    }

    public func makeFramer(maxFrameBytes: Int) -> any Framer {
        switch self {
        case .ndjson: return NDJSONFramer(maxFrameBytes: maxFrameBytes)
        case .contentLength: return ContentLengthFramer(maxFrameBytes: maxFrameBytes)
        }
    }
}
