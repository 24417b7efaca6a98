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
