/// A CBOR data item (RFC 8949): what WebAuthn's attestation objects and COSE keys are made of.
/// Map entries keep the order they were read or given in (CTAP2's canonical encoding is the
/// writer's job: `CBOR.encode` writes what it is given, with the shortest heads).
public indirect enum CBOR: Equatable, Sendable {
    case unsigned(UInt64)
    /// −1 − n (major type 1), so the whole range down to −2⁶⁴ has a value.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([Entry])
    case tagged(UInt64, CBOR)
    case bool(Bool)
    case null
    case undefined
    /// Another simple value (major type 7, 0…19 and 32…255).
    case simple(UInt8)
    /// Half, single and double precision, read as a Double (RFC 8949 §3.3).
    case float(Double)

    public struct Entry: Equatable, Sendable {
        public var key: CBOR
        public var value: CBOR
        public init(_ key: CBOR, _ value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// An integer item for any Int (COSE labels and algorithms are small negative numbers).
    public static func int(_ value: Int) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// The item as an Int, when it is an integer that fits.
    public var intValue: Int? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): return n <= UInt64(Int.max) ? -Int(n) - 1 : nil
        default: return nil
        }
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    public var arrayValue: [CBOR]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var mapValue: [Entry]? {
        if case .map(let entries) = self { return entries }
        return nil
    }

    /// The value under `key` in a map; nil for another kind of item or a missing key.
    public subscript(key: CBOR) -> CBOR? {
        mapValue?.first { $0.key == key }?.value
    }

    public subscript(key: String) -> CBOR? { self[.text(key)] }
    public subscript(key: Int) -> CBOR? { self[.int(key)] }
}

// MARK: encoding

extension CBOR {
    /// The item's encoding with the shortest head for every length and integer (RFC 8949 §4.2.1),
    /// definite lengths only.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    private func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let n): Self.head(0, n, &out)
        case .negative(let n): Self.head(1, n, &out)
        case .bytes(let bytes):
            Self.head(2, UInt64(bytes.count), &out)
            out += bytes
        case .text(let text):
            let utf8 = Array(text.utf8)
            Self.head(3, UInt64(utf8.count), &out)
            out += utf8
        case .array(let items):
            Self.head(4, UInt64(items.count), &out)
            for item in items { item.encode(into: &out) }
        case .map(let entries):
            Self.head(5, UInt64(entries.count), &out)
            for entry in entries {
                entry.key.encode(into: &out)
                entry.value.encode(into: &out)
            }
        case .tagged(let tag, let item):
            Self.head(6, tag, &out)
            item.encode(into: &out)
        case .bool(let value): out.append(value ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        case .undefined: out.append(0xF7)
        case .simple(let value):
            if value < 24 { out.append(0xE0 | value) } else { out += [0xF8, value] }
        case .float(let value):
            out.append(0xFB)
            let bits = value.bitPattern
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64, _ out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: out.append(type | UInt8(argument))
        case 24...0xFF: out += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: out += [type | 25] + bigEndian(argument, 2)
        case 0x1_0000...0xFFFF_FFFF: out += [type | 26] + bigEndian(argument, 4)
        default: out += [type | 27] + bigEndian(argument, 8)
        }
    }

    private static func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
