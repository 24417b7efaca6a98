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

    /// The records of whole, intact lines from the start, and how many bytes they span.
    static func decode(_ bytes: [UInt8]) -> (records: [JSONValue], validBytes: Int) {
        var records: [JSONValue] = []
        var start = 0
        while start < bytes.count, let end = bytes[start...].firstIndex(of: 0x0A) {
            let line = bytes[start..<end]
            guard line.count > 17, line[line.startIndex + 16] == 0x20 else { break }
            let json = Array(line.dropFirst(17))
            guard String(decoding: line.prefix(16), as: UTF8.self) == hex(SHA256.hash(json).prefix(8)),
                let record = try? JSONParser.parse(json, maxDepth: StateDirectory.maxDepth)
            else { break }
            records.append(record)
            start = end + 1
        }
        return (records, start)
    }

    private static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}
