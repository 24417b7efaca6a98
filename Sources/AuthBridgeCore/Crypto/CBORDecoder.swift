/// A strict CBOR reader (RFC 8949 §3) for input a client controls: nesting, the number of items
/// and every length are bounded before anything is allocated, so a "CBOR bomb" (a huge
/// declared length, deep nesting, millions of tiny items) is refused with an error, never a
/// trap or an allocation of the declared size. Text must be UTF-8, map keys unique.
public struct CBORDecoder {
    public struct Limits: Sendable {
        /// Arrays, maps and tags inside each other.
        public var maxDepth: Int
        /// Data items in all, nested ones included.
        public var maxItems: Int

        public init(maxDepth: Int = 16, maxItems: Int = 4096) {
            self.maxDepth = maxDepth
            self.maxItems = maxItems
        }
    }

    public enum Error: Swift.Error, Equatable, Sendable {
        /// The input ends inside an item.
        case truncated(offset: Int)
        /// Additional information 28…30, or an indefinite length where none may be (§3.2.4).
        case malformedHead(offset: Int)
        case tooDeep(offset: Int)
        case tooManyItems(offset: Int)
        /// A string or container longer than the input that is left.
        case lengthBeyondInput(offset: Int)
        case invalidUTF8(offset: Int)
        /// A "break" where no indefinite-length item is open.
        case unexpectedBreak(offset: Int)
        /// A chunk of an indefinite-length string that is not a definite string of its type.
        case badChunk(offset: Int)
        /// A simple value 0…31 written in two bytes (§3.3).
        case badSimpleValue(offset: Int)
        case duplicateMapKey(offset: Int)
        /// Bytes after the one item expected.
        case trailingBytes(offset: Int)
    }

    private let bytes: ArraySlice<UInt8>
    private let limits: Limits
    /// Where the next item starts, an index into the slice given.
    public private(set) var position: Int
    private var items = 0

    public init(_ bytes: ArraySlice<UInt8>, limits: Limits = Limits()) {
        self.bytes = bytes
        self.limits = limits
        position = bytes.startIndex
    }

    /// The one item `bytes` holds; anything after it is an error.
    public static func decode(_ bytes: [UInt8], limits: Limits = Limits()) throws(Error) -> CBOR {
        var decoder = CBORDecoder(bytes[...], limits: limits)
        let item = try decoder.decodeItem()
        guard decoder.isAtEnd else { throw .trailingBytes(offset: decoder.position) }
        return item
    }

    public var isAtEnd: Bool { position == bytes.endIndex }

    /// The next item; `position` then points after it (WebAuthn's authenticator data has a COSE
    /// key followed by more CBOR).
    public mutating func decodeItem() throws(Error) -> CBOR {
        guard let item = try item(depth: 0) else { throw .unexpectedBreak(offset: position - 1) }
        return item
    }

    /// nil for a break (0xFF), which only an indefinite-length item's reader accepts.
    private mutating func item(depth: Int) throws(Error) -> CBOR? {
        let start = position
        guard depth <= limits.maxDepth else { throw .tooDeep(offset: start) }
        items += 1
        guard items <= limits.maxItems else { throw .tooManyItems(offset: start) }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        if initial == 0xFF { return nil }
        if info == 31 {
            switch major {
            case 2, 3: return try indefiniteString(major: major, depth: depth, start: start)
            case 4:
                var list: [CBOR] = []
                while let next = try item(depth: depth + 1) { list.append(next) }
                return .array(list)
            case 5: return .map(try entries(count: nil, depth: depth, start: start))
            default: throw .malformedHead(offset: start)
            }
        }
        if major == 7 { return try simple(info: info, start: start) }
        let argument = try self.argument(info: info, start: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(Array(try take(argument, start: start)))
        case 3: return .text(try text(try take(argument, start: start), start: start))
        case 4:
            // Every item is at least one byte: a count beyond the input is refused before the array is made.
            guard argument <= UInt64(bytes.endIndex - position) else { throw .lengthBeyondInput(offset: start) }
            var list: [CBOR] = []
            list.reserveCapacity(Int(argument))
            for _ in 0..<argument {
                guard let next = try item(depth: depth + 1) else { throw .unexpectedBreak(offset: position - 1) }
                list.append(next)
            }
            return .array(list)
        case 5:
            guard argument <= UInt64(bytes.endIndex - position) / 2 else { throw .lengthBeyondInput(offset: start) }
            return .map(try entries(count: Int(argument), depth: depth, start: start))
        default:
            guard let tagged = try item(depth: depth + 1) else { throw .unexpectedBreak(offset: position - 1) }
            return .tagged(argument, tagged)
        }
    }

    private mutating func entries(count: Int?, depth: Int, start: Int) throws(Error) -> [CBOR.Entry] {
        var entries: [CBOR.Entry] = []
        while count.map({ entries.count < $0 }) ?? true {
            let keyOffset = position
            guard let key = try item(depth: depth + 1) else {
                if count == nil { break }
                throw .unexpectedBreak(offset: position - 1)
            }
            guard let value = try item(depth: depth + 1) else { throw .unexpectedBreak(offset: position - 1) }
            guard !entries.contains(where: { $0.key == key }) else { throw .duplicateMapKey(offset: keyOffset) }
            entries.append(CBOR.Entry(key, value))
        }
        return entries
    }

    private mutating func indefiniteString(major: UInt8, depth: Int, start: Int) throws(Error) -> CBOR {
        var joined: [UInt8] = []
        while true {
            let chunkStart = position
            guard let chunk = try item(depth: depth + 1) else { break }
            switch (major, chunk) {
            case (2, .bytes(let part)): joined += part
            case (3, .text(let part)): joined += Array(part.utf8)
            default: throw .badChunk(offset: chunkStart)
            }
        }
        return major == 2 ? .bytes(joined) : .text(try text(joined[...], start: start))
    }

    private mutating func simple(info: UInt8, start: Int) throws(Error) -> CBOR {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            let value = try byte()
            guard value >= 32 else { throw .badSimpleValue(offset: start) }
            return .simple(value)
        case 25: return .float(Self.half(UInt16(try argument(info: 25, start: start))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try argument(info: 26, start: start)))))
        case 27: return .float(Double(bitPattern: try argument(info: 27, start: start)))
        case 28...31: throw .malformedHead(offset: start)
        default: return .simple(info)
        }
    }

    private mutating func argument(info: UInt8, start: Int) throws(Error) -> UInt64 {
        let size: Int
        switch info {
        case 0..<24: return UInt64(info)
        case 24: size = 1
        case 25: size = 2
        case 26: size = 4
        case 27: size = 8
        default: throw .malformedHead(offset: start)
        }
        guard bytes.endIndex - position >= size else { throw .truncated(offset: start) }
        var value: UInt64 = 0
        for byte in bytes[position..<position + size] { value = value << 8 | UInt64(byte) }
        position += size
        return value
    }

    private mutating func byte() throws(Error) -> UInt8 {
        guard position < bytes.endIndex else { throw .truncated(offset: position) }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func take(_ length: UInt64, start: Int) throws(Error) -> ArraySlice<UInt8> {
        guard length <= UInt64(bytes.endIndex - position) else { throw .lengthBeyondInput(offset: start) }
        defer { position += Int(length) }
        return bytes[position..<position + Int(length)]
    }

    private func text(_ utf8: ArraySlice<UInt8>, start: Int) throws(Error) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
        return text
    }

    /// IEEE 754 half precision (RFC 8949 Appendix D).
    private static func half(_ bits: UInt16) -> Double {
        let exponent = Int(bits >> 10 & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        let magnitude: Double =
            switch exponent {
            case 0: mantissa * Double(sign: .plus, exponent: -24, significand: 1)
            case 31: mantissa == 0 ? .infinity : .nan
            default: (mantissa + 1024) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
            }
        return bits & 0x8000 != 0 ? -magnitude : magnitude
    }
}
