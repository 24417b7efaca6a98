import AuthBridgeCore

/// One `Set-Cookie` header as the SDK's cookie jar needs it (RFC 6265 §5.2, the parts AM uses):
/// the name and value, and whether the server is deleting the cookie (an empty value, a
/// `Max-Age` of zero or less, an `Expires` date already past). Domain and path are not checked:
/// the jar only ever talks to the one tenant.
struct SetCookie {
    let name: String
    let value: String
    let deletes: Bool

    init?(_ header: String, now: CivilTime) {
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        name = pair[..<equals].trimmedSpaces
        guard !name.isEmpty else { return nil }
        var value = pair[pair.index(after: equals)...].trimmedSpaces
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
        self.value = value
        var maxAge: Int?
        var expires: [Int64]?
        for attribute in parts.dropFirst() {
            let (key, argument) = Self.split(attribute)
            if key == "max-age" { maxAge = Int(argument) }
            if key == "expires" { expires = Self.httpDate(argument) }
        }
        // Max-Age wins over Expires (RFC 6265 §5.3 step 3).
        let now = Self.fields(now)
        deletes = value.isEmpty || (maxAge.map { $0 <= 0 } ?? expires.map { !now.lexicographicallyPrecedes($0) } ?? false)
    }

    private static func split(_ attribute: Substring) -> (String, String) {
        guard let equals = attribute.firstIndex(of: "=") else { return (attribute.trimmedSpaces.lowercased(), "") }
        return (attribute[..<equals].trimmedSpaces.lowercased(), attribute[attribute.index(after: equals)...].trimmedSpaces)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `Thu, 01 Jan 1970 00:00:00 GMT` or the older `Thu, 01-Jan-1970 00:00:10 GMT`, as
    /// [year, month, day, hour, minute, second] to compare in order.
    static func httpDate(_ text: String) -> [Int64]? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "," })
        guard words.count >= 5, let day = Int64(words[1]), let monthIndex = months.firstIndex(of: words[2].lowercased()),
            var year = Int64(words[3])
        else { return nil }
        if year < 100 { year += year < 70 ? 2000 : 1900 }
        let clock = words[4].split(separator: ":").compactMap { Int64($0) }
        guard clock.count == 3 else { return nil }
        return [year, Int64(monthIndex + 1), day] + clock
    }

    static func fields(_ time: CivilTime) -> [Int64] {
        [time.year, time.month, time.day, time.hour, time.minute, time.second]
    }
}

extension Substring {
    fileprivate var trimmedSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
