/// UTC timestamps in ISO 8601, as AM and IDM write them.
public enum ISO8601 {
    /// Whole seconds, as AM writes them in session info: `2026-01-01T00:00:00Z`.
    public static func format(_ unixSeconds: Double) -> String {
        let t = CivilTime(unixSeconds: unixSeconds)
        return "\(t.year)-\(two(t.month))-\(two(t.day))T\(two(t.hour)):\(two(t.minute)):\(two(t.second))Z"
    }

    /// Milliseconds (of the seconds times 1000, rounded down) and a four-digit year, as IDM
    /// stores dates (`2026-01-01T00:00:00.000Z`).
    public static func formatMillis(_ unixSeconds: Double) -> String {
        let t = CivilTime(unixMillis: Int64((unixSeconds * 1000).rounded(.down)))
        return
            "\(CivilTime.padded(t.year, 4))-\(two(t.month))-\(two(t.day))T\(two(t.hour)):\(two(t.minute)):\(two(t.second))."
            + "\(CivilTime.padded(t.millisecond, 3))Z"
    }

    private static func two(_ value: Int64) -> String { CivilTime.padded(value, 2) }
}

extension ISO8601 {
    /// The Unix seconds of a UTC timestamp as `format` and `formatMillis` write it
    /// (`2026-01-01T00:00:00Z`, `2026-01-01T00:00:00.250Z`); nil for any other text, a date that
    /// does not exist (February 30th) or one outside `TimeBounds`.
    public static func parse(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || bytes.count == 24, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let digit = bytes[index]
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(digit - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ bytes[$0.0] == UInt8(ascii: $0.1.unicodeScalars.first!) }) else { return nil }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var millis: Int64 = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let fraction = number(20..<23) else { return nil }
            millis = fraction
        }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), day >= 1, day <= days[Int(month - 1)], hour < 24, minute < 60, second < 60
        else { return nil }
        let seconds =
            Double(
                CivilTime.unixSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
            + Double(millis) / 1000
        return TimeBounds.contains(seconds) ? seconds : nil
    }
}
