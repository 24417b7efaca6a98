/// A UTC instant split into calendar fields, the one place seconds since 1970 become a date: the
/// ISO 8601 texts AM and IDM write and Android's `DateFormat` text are all formatted from it.
public struct CivilTime: Equatable, Sendable {
    public let year: Int64
    public let month: Int64
    public let day: Int64
    public let hour: Int64
    public let minute: Int64
    public let second: Int64
    public let millisecond: Int64

    /// Whole seconds (rounded down) and the milliseconds of the fraction.
    public init(unixSeconds: Double) {
        let whole = unixSeconds.rounded(.down)
        self.init(unixMillis: Int64(whole) * 1000 + Int64(((unixSeconds - whole) * 1000).rounded(.down)))
    }

    /// Milliseconds since 1970; times are within `TimeBounds` (0 to 9999-12-31, plus lifetimes), far from overflow.
    public init(unixMillis: Int64) {
        let seconds = unixMillis >= 0 ? unixMillis / 1000 : (unixMillis - 999) / 1000
        millisecond = unixMillis - seconds * 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        (hour, minute, second) = (secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
        // Days to civil date (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Seconds since 1970 of a UTC calendar time (Howard Hinnant's days-from-civil): the way back,
    /// for dates read from text such as X.509 validity times. Fields are not range-checked here.
    public static func unixSeconds(
        year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64
    ) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// `value` in decimal, zero-padded on the left to `width` digits.
    public static func padded(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
