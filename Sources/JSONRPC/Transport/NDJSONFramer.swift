/// Newline-delimited JSON: one message per `\n`-terminated line. A trailing `\r` is stripped,
/// blank lines are skipped and a UTF-8 BOM on the first line is dropped. The size limit is
/// enforced while scanning, so an oversized line is refused however the pipe splits it, and its
/// bytes are discarded up to the next newline instead of being buffered.
public struct NDJSONFramer: Framer {
    public let maxFrameBytes: Int

    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var discarding = false
    private var atFirstLine = true

    public init(maxFrameBytes: Int) {
        self.maxFrameBytes = maxFrameBytes
    }

    public mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    public mutating func next() -> FrameEvent? {
        while true {
            guard let newline = findNewline() else {
                if discarding {
                    dropPending()
                } else if buffer.count - start > maxFrameBytes + allowance {
                    discarding = true
                    dropPending()
                    return .oversized(limit: maxFrameBytes)
                }
                return nil
            }
            let lineStart = start
            start = newline + 1
            scanned = start
            if discarding {
                discarding = false
                atFirstLine = false
                continue
            }
            var end = newline
            if end > lineStart, buffer[end - 1] == 0x0D { end -= 1 }
            var begin = lineStart
            if atFirstLine {
                atFirstLine = false
                if end - begin >= 3, buffer[begin] == 0xEF, buffer[begin + 1] == 0xBB, buffer[begin + 2] == 0xBF {
                    begin += 3
                }
            }
            if end - begin > maxFrameBytes { return .oversized(limit: maxFrameBytes) }
            if isBlank(begin, end) { continue }
            return .frame(Array(buffer[begin..<end]))
        }
    }

    public mutating func finish() -> FrameEvent? {
        defer { dropPending() }
        if discarding { return nil }
        let pending = buffer.count - start
        if pending == 0 || isBlank(start, buffer.count) { return nil }
        return .truncated(byteCount: pending)
    }

    public func encode(_ body: [UInt8], into out: inout [UInt8]) {
        out.append(contentsOf: body)
        out.append(0x0A)
    }

    /// Bytes a pending line may hold beyond the limit without its content being over it: the
    /// `\r` before the newline, and on the first line a BOM. The limit counts the frame's
    /// content, however the pipe splits the bytes.
    private var allowance: Int { atFirstLine ? 4 : 1 }

    private mutating func findNewline() -> Int? {
        var index = max(scanned, start)
        while index < buffer.count {
            if buffer[index] == 0x0A { return index }
            index += 1
        }
        scanned = index
        return nil
    }

    private mutating func dropPending() {
        buffer.removeAll(keepingCapacity: true)
        start = 0
        scanned = 0
    }

    private func isBlank(_ from: Int, _ to: Int) -> Bool {
        var index = from
        while index < to {
            switch buffer[index] {
            case 0x20, 0x09, 0x0D: index += 1
            default: return false
            }
        }
        return true
    }
}
