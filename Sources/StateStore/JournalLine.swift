import AuthBridgeCore

/// One journal record on disk: `<16 hex digits> <compact JSON>\n`, the digits the first 8 bytes
/// of the JSON's SHA-256. The newline is the commit marker; the checksum catches a record that
/// reached the disk only in part.
enum JournalLine {
    static func encode(_ record: JSONValue) -> [UInt8] {
        let json = JSONWriter().bytes(record)
        var line = Array(hex(SHA256.hash(json).prefix(8)).utf8)
        line.append(0x20)
        line += json
        line.append(0x0A)
        return line
    }

    /// What a journal's bytes hold: the intact records from the start, how many bytes they span,
    /// and what stopped the reading, if anything did.
    struct Decoded {
        var records: [JSONValue]
        var validBytes: Int
        /// A record after which nothing else was written: the one append a crash can cut short
        /// (appends are one at a time, and a failed one is cut off before the next). Never
        /// acknowledged, so it may be dropped.
        var tornTail: Int?
        /// A damaged record with more written after it: no crash leaves that, so it is not dropped.
        var damage: JournalDamage?
    }

    /// Reads records until the first that is not intact. That one is the torn tail when nothing
    /// but it follows (no newline after it, or nothing after its newline); otherwise it is damage
    /// in the middle, and the intact records after it are counted for the report.
    static func decode(_ bytes: [UInt8]) -> Decoded {
        var decoded = Decoded(records: [], validBytes: 0)
        var start = 0
        var line = 1
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: 0x0A)
            let end = newline ?? bytes.count
            let record = newline == nil ? nil : parse(bytes[start..<end])
            guard let record else {
                let next = end + 1
                if next >= bytes.count {
                    decoded.tornTail = bytes.count - start
                } else {
                    decoded.damage = JournalDamage(
                        line: line, offset: start, intactAfter: intactRecords(bytes[next...]))
                }
                break
            }
            decoded.records.append(record)
            start = end + 1
            line += 1
        }
        decoded.validBytes = start
        return decoded
    }

    /// The record of one line without its newline, or nil when it is not whole and intact.
    private static func parse(_ line: ArraySlice<UInt8>) -> JSONValue? {
        guard line.count > 17, line[line.startIndex + 16] == 0x20 else { return nil }
        let json = Array(line.dropFirst(17))
        guard String(decoding: line.prefix(16), as: UTF8.self) == hex(SHA256.hash(json).prefix(8)) else { return nil }
        return try? JSONParser.parse(json, maxDepth: StateDirectory.maxDepth)
    }

    private static func intactRecords(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().filter { parse($0) != nil }.count
    }

    private static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}

/// A record in the middle of the journal that is not intact: where it is (1-based line, byte
/// offset of its start) and how many intact records were written after it.
public struct JournalDamage: Equatable, Sendable {
    public let line: Int
    public let offset: Int
    public let intactAfter: Int
}
