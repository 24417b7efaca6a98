import AuthBridgeCore

/// One `Set-Cookie` header as the SDK's cookie jar needs it (RFC 6265 §5.2, the parts AM uses):
/// the name and value, the `Domain` attribute, the header's size (what the jar's per-cookie limit
/// measures), and whether the server is deleting the cookie (an empty value, a `Max-Age` of zero
/// or less, an `Expires` date already past). Path is not kept: the tenant's cookies (the
/// load balancer's affinity) are for all of it.
struct SetCookie {
    let name: String
    let value: String
    let deletes: Bool
    /// The `Domain` attribute lower-cased without its leading dot (RFC 6265 §5.2.3); nil when absent or empty.
    let domain: String?
    /// Name, value and attributes: the whole header's bytes (RFC 6265 §6.1 measures a cookie so).
    let size: Int

    init?(_ header: String, now: CivilTime) {
        size = header.utf8.count
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        name = pair[..<equals].trimmedSpaces
        guard !name.isEmpty else { return nil }
        var value = pair[pair.index(after: equals)...].trimmedSpaces
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        self.value = value
        var maxAge: Int?
        var expires: [Int64]?
        var domain: String?
        for attribute in parts.dropFirst() {
            let (key, argument) = Self.split(attribute)
            if key == "max-age" { maxAge = Int(argument) }
            if key == "expires" { expires = Self.httpDate(argument) }
            if key == "domain" {
                let bare = argument.hasPrefix(".") ? String(argument.dropFirst()) : argument
                domain = bare.isEmpty ? nil : bare.lowercased()
            }
        }
        self.domain = domain
        // Max-Age wins over Expires (RFC 6265 §5.3 step 3).
        let now = Self.fields(now)
        deletes =
            value.isEmpty || (maxAge.map { $0 <= 0 } ?? expires.map { !now.lexicographicallyPrecedes($0) } ?? false)
    }

    private static func split(_ attribute: Substring) -> (String, String) {
        guard let equals = attribute.firstIndex(of: "=") else { return (attribute.trimmedSpaces.lowercased(), "") }
        return (
            attribute[..<equals].trimmedSpaces.lowercased(), attribute[attribute.index(after: equals)...].trimmedSpaces
        )
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `Thu, 01 Jan 1970 00:00:00 GMT` or the older `Thu, 01-Jan-1970 00:00:10 GMT`, as
    /// [year, month, day, hour, minute, second] to compare in order.
    static func httpDate(_ text: String) -> [Int64]? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "," })
        guard words.count >= 5, let day = Int64(words[1]),
            let monthIndex = months.firstIndex(of: words[2].lowercased()),
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
