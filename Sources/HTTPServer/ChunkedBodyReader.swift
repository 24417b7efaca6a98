/// A `Transfer-Encoding: chunked` body (RFC 9112 §7.1), read as far as the bytes go and resumed
/// when more arrive: size lines, data, the CRLF after it, then trailer fields, which are checked
/// and dropped (nothing here needs them).
///
/// Strict, because a body whose end two parsers see in different places is how requests are
/// smuggled past a proxy: the size is `1*HEXDIG` (no sign, no `0x`, no space inside or after it),
/// extensions follow RFC 9112's `chunk-ext` (checked, then ignored), and every line of the body
/// ends in CRLF, since a bare LF is allowed only in the head (RFC 9112 §2.2). Anything else is 400;
/// a size past what the body may still hold is 413, whatever its number of digits.
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

    typealias Failure = HTTPRequestDecoder.Failure

    /// A size line (with its extensions) longer than this is refused.
    static let maxSizeLine = 1024

    private(set) var body: [UInt8] = []
    private var phase = Phase.size

    mutating func read(_ buffer: [UInt8], from start: inout Int, limits: HTTPRequestDecoder.Limits) -> Outcome {
        while true {
            switch phase {
            case .size:
                // The LF may be at most `maxSizeLine` bytes past the line's start (CR included).
                let window = buffer[start..<min(buffer.count, start + Self.maxSizeLine + 2)]
                guard let newline = window.firstIndex(of: 0x0A) else {
                    if window.count > Self.maxSizeLine + 1 { return .failed(Self.malformedSize) }
                    return .needMore
                }
                guard newline > start, buffer[newline - 1] == 0x0D else { return .failed(Self.malformedSize) }
                let room = limits.maxBodyBytes - body.count
                switch Self.chunkSize(buffer[start..<newline - 1], atMost: room) {
                case .malformed:
                    return .failed(Self.malformedSize)
                case .tooLarge:
                    return .failed(Failure(status: 413, "the body is longer than \(limits.maxBodyBytes) bytes"))
                case .size(let size):
                    start = newline + 1
                    phase = size == 0 ? .trailers(bytes: 0) : .data(remaining: size)
                }
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
                guard buffer[start] == 0x0D else {
                    return .failed(Failure(status: 400, "chunk data longer than its size"))
                }
                guard buffer.count - start >= 2 else { return .needMore }
                guard buffer[start + 1] == 0x0A else {
                    return .failed(Failure(status: 400, "chunk data longer than its size"))
                }
                start += 2
                phase = .size
            case .trailers(let bytes):
                let tooLong = Failure(status: 431, "trailer fields longer than \(limits.maxHeaderBytes) bytes")
                guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
                    return bytes + buffer.count - start > limits.maxHeaderBytes ? .failed(tooLong) : .needMore
                }
                guard newline > start, buffer[newline - 1] == 0x0D else {
                    return .failed(Failure(status: 400, "a line of a chunked body not ended by CRLF"))
                }
                let line = buffer[start..<newline - 1]
                start = newline + 1
                if line.isEmpty { return .done }
                guard bytes + line.count + 2 <= limits.maxHeaderBytes else { return .failed(tooLong) }
                guard HTTPHead.fieldLine(line) != nil else {
                    return .failed(Failure(status: 400, "malformed trailer field"))
                }
                phase = .trailers(bytes: bytes + line.count + 2)
            }
        }
    }

    private static let malformedSize = Failure(status: 400, "malformed chunk size")

    enum SizeLine: Equatable {
        case size(Int)
        case tooLarge
        case malformed
    }

    /// `chunk-size [ chunk-ext ]` (RFC 9112 §7.1, without its CRLF):
    ///
    ///     chunk-size = 1*HEXDIG
    ///     chunk-ext  = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
    ///     chunk-ext-name = token;  chunk-ext-val = token / quoted-string
    ///
    /// Leading zeros are allowed in any number (the line's length bounds them); a size above
    /// `atMost` is `tooLarge` once the whole line has been found well formed.
    static func chunkSize(_ line: ArraySlice<UInt8>, atMost limit: Int) -> SizeLine {
        var index = line.startIndex
        var size = 0
        var tooLarge = false
        // Past the bound, the digits are only checked: another one could overflow the value.
        let bound = min(limit, Int.max >> 5)
        while index < line.endIndex, let digit = hexValue(line[index]) {
            if !tooLarge {
                size = size * 16 + digit
                tooLarge = size > bound
            }
            index += 1
        }
        guard index > line.startIndex else { return .malformed }
        func skipWhitespace() { while index < line.endIndex, line[index] == 0x20 || line[index] == 0x09 { index += 1 } }
        func skipToken() -> Bool {
            let first = index
            while index < line.endIndex, HTTPHead.isTokenByte(line[index]) { index += 1 }
            return index > first
        }
        while index < line.endIndex {
            skipWhitespace()
            guard index < line.endIndex, line[index] == UInt8(ascii: ";") else { return .malformed }
            index += 1
            skipWhitespace()
            guard skipToken() else { return .malformed }
            let afterName = index
            skipWhitespace()
            if index < line.endIndex, line[index] == UInt8(ascii: "=") {
                index += 1
                skipWhitespace()
                guard skipToken() || skipQuotedString(line, &index) else { return .malformed }
            } else {
                // The whitespace is the next extension's BWS, or trails the line (malformed).
                index = afterName
            }
        }
        return tooLarge ? .tooLarge : .size(size)
    }

    /// RFC 9110 §5.6.4: `DQUOTE *( qdtext / quoted-pair ) DQUOTE`, advancing past it.
    private static func skipQuotedString(_ line: ArraySlice<UInt8>, _ index: inout Int) -> Bool {
        guard index < line.endIndex, line[index] == 0x22 else { return false }
        var cursor = index + 1
        while cursor < line.endIndex {
            let byte = line[cursor]
            switch byte {
            case 0x22:
                index = cursor + 1
                return true
            case 0x5C:
                // quoted-pair: a backslash and HTAB, SP, VCHAR or obs-text.
                guard cursor + 1 < line.endIndex else { return false }
                let escaped = line[cursor + 1]
                guard escaped == 0x09 || escaped >= 0x20 && escaped != 0x7F else { return false }
                cursor += 2
            case 0x09, 0x20, 0x21, 0x23...0x5B, 0x5D...0x7E, 0x80...0xFF:
                cursor += 1
            default:
                return false
            }
        }
        return false
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
