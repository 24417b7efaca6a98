/// A strict reader of ASN.1 DER (ITU-T X.690 §8 and §10): definite, minimal lengths; single-byte
/// tags; minimal, non-negative INTEGERs where unsigned values are expected. Enough for ECDSA
/// signatures (SEC 1 §C.8), SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) and X.509 certificates.
///
/// Hostile input is cheap: elements are slices of the input (nothing is allocated from a declared
/// length), a length past the end is refused before it is used, and there is no recursive descent
/// driven by the data (the callers read fixed structures), so nesting cannot exhaust the stack.
public enum DER {
    public enum Error: Swift.Error, Equatable, Sendable {
        /// The input ended inside the element starting at `offset`.
        case truncated(offset: Int)
        case unexpectedTag(expected: UInt8, found: UInt8, offset: Int)
        /// High-tag-number form (tag byte & 0x1F == 0x1F): nothing read here uses it.
        case unsupportedTag(offset: Int)
        /// Indefinite length (BER, not DER), a long form that could be shorter, or over 2^32.
        case invalidLength(offset: Int)
        /// Bytes left after the last expected element of a value at `offset`.
        case trailingBytes(offset: Int)
        /// An INTEGER that is empty, has a redundant leading byte, or is negative where unsigned.
        case invalidInteger(offset: Int)
        case invalidBitString(offset: Int)
        case invalidObjectIdentifier(offset: Int)
        case invalidTime(offset: Int)
        case invalidBoolean(offset: Int)
    }

    public enum Tag {
        public static let boolean: UInt8 = 0x01
        public static let integer: UInt8 = 0x02
        public static let bitString: UInt8 = 0x03
        public static let octetString: UInt8 = 0x04
        public static let null: UInt8 = 0x05
        public static let objectIdentifier: UInt8 = 0x06
        public static let utf8String: UInt8 = 0x0C
        public static let printableString: UInt8 = 0x13
        public static let ia5String: UInt8 = 0x16
        public static let utcTime: UInt8 = 0x17
        public static let generalizedTime: UInt8 = 0x18
        public static let sequence: UInt8 = 0x30
        public static let set: UInt8 = 0x31
        /// [n] EXPLICIT (constructed, context-specific).
        public static func explicit(_ n: UInt8) -> UInt8 { 0xA0 | n }
    }

    /// One tag-length-value element.
    public struct Element: Sendable {
        public let tag: UInt8
        /// The value bytes.
        public let content: ArraySlice<UInt8>
        /// The whole encoding, tag and length included (what a signature over a TBSCertificate covers).
        public let encoded: ArraySlice<UInt8>
        /// Where it starts in the input.
        public var offset: Int { encoded.startIndex }
    }

    public struct Reader: Sendable {
        private let bytes: ArraySlice<UInt8>
        private var position: Int
        /// For errors: where the enclosing value starts.
        private let origin: Int

        public init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
            origin = bytes.startIndex
        }

        public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

        public var isAtEnd: Bool { position == bytes.endIndex }

        public func peekTag() -> UInt8? { isAtEnd ? nil : bytes[position] }

        public mutating func read() throws(DER.Error) -> Element {
            let start = position
            guard bytes.endIndex - start >= 2 else { throw .truncated(offset: start) }
            let tag = bytes[start]
            guard tag & 0x1F != 0x1F else { throw .unsupportedTag(offset: start) }
            var index = start + 1
            let first = bytes[index]
            index += 1
            var length = 0
            if first < 0x80 {
                length = Int(first)
            } else {
                let count = Int(first & 0x7F)
                guard count >= 1, count <= 4 else { throw .invalidLength(offset: start) }
                guard bytes.endIndex - index >= count else { throw .truncated(offset: start) }
                guard bytes[index] != 0 else { throw .invalidLength(offset: start) }
                for _ in 0..<count {
                    length = length << 8 | Int(bytes[index])
                    index += 1
                }
                guard length >= 0x80 else { throw .invalidLength(offset: start) }
            }
            guard bytes.endIndex - index >= length else { throw .truncated(offset: start) }
            position = index + length
            return Element(tag: tag, content: bytes[index..<position], encoded: bytes[start..<position])
        }

        public mutating func read(tag: UInt8) throws(DER.Error) -> Element {
            guard let found = peekTag() else { throw .truncated(offset: position) }
            guard found == tag else { throw .unexpectedTag(expected: tag, found: found, offset: position) }
            return try read()
        }

        /// The next element if it has `tag` (OPTIONAL and DEFAULT fields), nil otherwise.
        public mutating func readIfPresent(tag: UInt8) throws(DER.Error) -> Element? {
            peekTag() == tag ? try read() : nil
        }

        /// Refuses anything left over.
        public func finish() throws(DER.Error) {
            guard isAtEnd else { throw .trailingBytes(offset: origin) }
        }

        /// A constructed element with `tag` (SEQUENCE by default) whose contents `body` must read
        /// completely.
        public mutating func nested<T>(
            tag: UInt8 = Tag.sequence, _ body: (inout Reader) throws(DER.Error) -> T
        ) throws(DER.Error) -> T {
            let element = try read(tag: tag)
            var inner = Reader(element.content, origin: element.offset)
            let value = try body(&inner)
            try inner.finish()
            return value
        }

        /// The contents of a constructed element with `tag`, as a reader of their own: for
        /// structures read field by field (call `finish()` on it after the last).
        public mutating func contents(tag: UInt8 = Tag.sequence) throws(DER.Error) -> Reader {
            let element = try read(tag: tag)
            return Reader(element.content, origin: element.offset)
        }

        private init(_ bytes: ArraySlice<UInt8>, origin: Int) {
            self.bytes = bytes
            position = bytes.startIndex
            self.origin = origin
        }

        /// A non-negative INTEGER's magnitude without the sign byte: minimal encoding required.
        public mutating func unsignedInteger() throws(DER.Error) -> ArraySlice<UInt8> {
            let element = try read(tag: Tag.integer)
            let content = element.content
            guard let first = content.first else { throw .invalidInteger(offset: element.offset) }
            guard first & 0x80 == 0 else { throw .invalidInteger(offset: element.offset) }
            if first == 0, content.count > 1 {
                guard content[content.startIndex + 1] & 0x80 != 0 else { throw .invalidInteger(offset: element.offset) }
                return content.dropFirst()
            }
            return content
        }

        /// A small INTEGER (the X.509 version): minimal, 0 ≤ value < 2^31.
        public mutating func smallInteger() throws(DER.Error) -> Int {
            let offset = position
            let magnitude = try unsignedInteger()
            guard magnitude.count <= 4 else { throw .invalidInteger(offset: offset) }
            let value = magnitude.reduce(0) { $0 << 8 | Int($1) }
            guard value <= Int(Int32.max) else { throw .invalidInteger(offset: offset) }
            return value
        }

        public mutating func boolean() throws(DER.Error) -> Bool {
            let element = try read(tag: Tag.boolean)
            // DER: exactly one byte, 0x00 or 0xFF (X.690 §11.1).
            guard element.content.count == 1, let byte = element.content.first, byte == 0 || byte == 0xFF else {
                throw .invalidBoolean(offset: element.offset)
            }
            return byte == 0xFF
        }

        /// A BIT STRING's bytes; only whole bytes (no unused bits) are accepted, which is what keys
        /// and signatures are.
        public mutating func bitString() throws(DER.Error) -> ArraySlice<UInt8> {
            let element = try read(tag: Tag.bitString)
            guard element.content.first == 0 else { throw .invalidBitString(offset: element.offset) }
            return element.content.dropFirst()
        }

        public mutating func objectIdentifier() throws(DER.Error) -> ObjectIdentifier {
            let element = try read(tag: Tag.objectIdentifier)
            let content = element.content
            // Each arc ends on a byte without the high bit, and no arc starts with 0x80 (X.690 §8.19.2).
            guard let last = content.last, last & 0x80 == 0 else {
                throw .invalidObjectIdentifier(offset: element.offset)
            }
            var arcStart = true
            for byte in content {
                if arcStart, byte == 0x80 { throw .invalidObjectIdentifier(offset: element.offset) }
                arcStart = byte & 0x80 == 0
            }
            return ObjectIdentifier(encoded: Array(content))
        }
    }

    /// An OBJECT IDENTIFIER, compared by its content octets.
    public struct ObjectIdentifier: Hashable, Sendable, CustomStringConvertible {
        public let encoded: [UInt8]

        public init(encoded: [UInt8]) { self.encoded = encoded }

        /// From dotted arcs, e.g. "1.2.840.10045.2.1".
        public init(_ dotted: StaticString) {
            let arcs = "\(dotted)".split(separator: ".").map { UInt64($0) ?? 0 }
            var out: [UInt8] = []
            let values = arcs.count >= 2 ? [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) : arcs
            for value in values {
                var chunk: [UInt8] = [UInt8(value & 0x7F)]
                var rest = value >> 7
                while rest > 0 {
                    chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                    rest >>= 7
                }
                out += chunk
            }
            encoded = out
        }

        public var description: String {
            var arcs: [UInt64] = []
            var value: UInt64 = 0
            for byte in encoded {
                value = value << 7 | UInt64(byte & 0x7F)
                if byte & 0x80 == 0 {
                    arcs.append(value)
                    value = 0
                }
            }
            guard let first = arcs.first else { return "" }
            let head = first < 80 ? [first / 40, first % 40] : [2, first - 80]
            return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
        }
    }

    /// Encodes a tag-length-value element (definite, minimal length).
    public static func encode(tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out = [tag]
        let count = content.count
        if count < 0x80 {
            out.append(UInt8(count))
        } else {
            var lengthBytes: [UInt8] = []
            var rest = count
            while rest > 0 {
                lengthBytes.insert(UInt8(rest & 0xFF), at: 0)
                rest >>= 8
            }
            out.append(0x80 | UInt8(lengthBytes.count))
            out += lengthBytes
        }
        return out + content
    }

    /// A non-negative INTEGER from big-endian magnitude bytes (leading zeros dropped, a zero byte
    /// added where the high bit would make it negative).
    public static func encodeUnsignedInteger(_ magnitude: some Collection<UInt8>) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return encode(tag: Tag.integer, bytes)
    }
}
