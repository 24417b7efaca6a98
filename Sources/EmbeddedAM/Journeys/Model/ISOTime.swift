/// Daemon-clock seconds as the ISO-8601 UTC text IDM writes (`2026-01-01T00:00:00.000Z`), for
/// dates nodes store, such as the terms acceptance date.
enum ISOTime {
    static func text(_ seconds: Double) -> String {
        let millis = Int64((seconds * 1000).rounded(.down))
        let days = Int64((Double(millis) / 86_400_000).rounded(.down))
        let dayMillis = millis - days * 86_400_000
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ n: Int64, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        let (h, m, s, ms) = (dayMillis / 3_600_000, dayMillis / 60_000 % 60, dayMillis / 1000 % 60, dayMillis % 1000)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(ms, 3))Z"
    }
}
