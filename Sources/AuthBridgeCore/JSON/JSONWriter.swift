/// Serializes `JSONValue` the ways the emulated platforms do. Output is always deterministic:
/// members come out in the order they were built.
public struct JSONWriter: Sendable {
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `/` written as `\/`, as Apple's JSONSerialization and JSONEncoder do.
        public static let escapeSlashes = Options(rawValue: 1 << 0)
        /// Apple's `.prettyPrinted`: two-space indent and `"key" : value`.
        public static let prettyPrinted = Options(rawValue: 1 << 1)
        /// Gson's default HTML-safe escaping of `< > & = '`.
        public static let escapeHTML = Options(rawValue: 1 << 2)
    }

    public var options: Options

    public init(options: Options = []) { self.options = options }

    public static func compact(_ value: JSONValue) -> String {
        JSONWriter().string(value)
    }

    public func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    public func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return out
    }

    public func write(_ value: JSONValue, into out: inout [UInt8]) {
        write(value, into: &out, indent: 0)
    }

    private func write(_ value: JSONValue, into out: inout [UInt8], indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): out.append(contentsOf: Self.format(d).utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            if elements.isEmpty {
                out.append(UInt8(ascii: "]"))
                return
            }
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                newline(into: &out, indent: indent + 1)
                write(element, into: &out, indent: indent + 1)
            }
            newline(into: &out, indent: indent)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            if object.members.isEmpty {
                out.append(UInt8(ascii: "}"))
                return
            }
            for (offset, member) in object.members.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                newline(into: &out, indent: indent + 1)
                writeString(member.key, into: &out)
                if options.contains(.prettyPrinted) {
                    out.append(contentsOf: " : ".utf8)
                } else {
                    out.append(UInt8(ascii: ":"))
                }
                write(member.value, into: &out, indent: indent + 1)
            }
            newline(into: &out, indent: indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    private func newline(into out: inout [UInt8], indent: Int) {
        guard options.contains(.prettyPrinted) else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Runs of bytes that need no escape are copied whole; most strings are one run. Appending
    /// byte by byte costs several times more (docs/performance.md).
    private func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { writeEscaped($0, into: &out) }
        if written == nil {
            // Small strings live inline, not in a buffer; withUTF8 copies them to the stack.
            var copy = string
            copy.withUTF8 { writeEscaped($0, into: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// One 256-byte table per combination of the escaping options (index: slashes 1, HTML 2):
    /// nonzero where a byte must be escaped. A table lookup per byte is what makes a JSON text
    /// nested in a string (the tokens getAccessToken answers) cheap to escape.
    private static let escapes: [UInt8] = (0..<4).flatMap { combination in
        (0...255).map { (byte: Int) -> UInt8 in
            let slash = combination & 1 != 0 && byte == 0x2F
            let html = combination & 2 != 0 && [0x3C, 0x3E, 0x26, 0x3D, 0x27].contains(byte)
            return byte < 0x20 || byte == 0x22 || byte == 0x5C || slash || html ? 1 : 0
        }
    }

    private func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        let combination = (options.contains(.escapeSlashes) ? 1 : 0) | (options.contains(.escapeHTML) ? 2 : 0)
        Self.escapes.withUnsafeBufferPointer { tables in
            let escapes = tables.baseAddress! + combination * 256
            var runStart = 0
            for index in 0..<bytes.count where escapes[Int(bytes[index])] != 0 {
                if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                appendEscape(bytes[index], into: &out)
                runStart = index + 1
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        }
    }

    private func appendEscape(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case 0x22, 0x5C, 0x2F:
            out.append(0x5C)
            out.append(byte)
        case 0x0A:
            out.append(0x5C)
            out.append(UInt8(ascii: "n"))
        case 0x0D:
            out.append(0x5C)
            out.append(UInt8(ascii: "r"))
        case 0x09:
            out.append(0x5C)
            out.append(UInt8(ascii: "t"))
        case 0x08:
            out.append(0x5C)
            out.append(UInt8(ascii: "b"))
        case 0x0C:
            out.append(0x5C)
            out.append(UInt8(ascii: "f"))
        default: appendUnicodeEscape(byte, into: &out)
        }
    }

    private func appendUnicodeEscape(_ byte: UInt8, into out: inout [UInt8]) {
        out.append(0x5C)
        out.append(UInt8(ascii: "u"))
        out.append(UInt8(ascii: "0"))
        out.append(UInt8(ascii: "0"))
        out.append(Self.hexDigits.utf8Start[Int(byte >> 4)])
        out.append(Self.hexDigits.utf8Start[Int(byte & 0x0F)])
    }

    /// Shortest round-trip form; integral values print without a fraction, as JavaScript and
    /// Foundation's JSONEncoder do. JSON has no NaN or infinity: those become null.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9.007_199_254_740_992e15 {
            return String(Int64(value))
        }
        return value.description
    }
}

extension JSONValue {
    /// Compact JSON text with no escaping beyond what JSON requires.
    public var compactText: String { JSONWriter.compact(self) }
}
