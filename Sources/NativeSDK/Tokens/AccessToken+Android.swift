import AuthBridgeCore

extension AccessToken {
    /// `new Gson().toJson(accessToken)` of forgerock-auth 4.6 (bridge-api.md §1.4): `scope` an
    /// array, `sessionToken` an object, `expiration` a `DateFormat` string, nulls left out.
    public func androidJSON(realm: String) -> JSONValue {
        var object: JSONObject = [
            "value": .string(value), "tokenType": .string(tokenType),
            "scope": .array(scope.split(separator: " ").map { .string(String($0)) }), "expiresIn": .int(expiresIn),
        ]
        if let refreshToken { object["refreshToken"] = .string(refreshToken) }
        if let idToken { object["idToken"] = .string(idToken) }
        object["expiration"] = .string(Self.javaMediumDateTime(expiresAt))
        if let sessionToken {
            let realmPath = "/" + realm
            object["sessionToken"] = [
                "value": .string(sessionToken), "successUrl": .string("/enduser/?realm=\(realmPath)"), "realm": .string(realmPath),
            ]
        }
        object["isPersisted"] = false
        return .object(object)
    }

    /// `DateFormat.getDateTimeInstance()` in the US locale, as Gson writes a `Date`:
    /// "Jan 5, 2025 10:00:00 AM". The emulator has no device time zone: it is UTC.
    static func javaMediumDateTime(_ unixSeconds: Double) -> String {
        let seconds = Int64(unixSeconds.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Days to civil date (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let hour24 = secondOfDay / 3600
        let minute = secondOfDay % 3600 / 60
        let second = secondOfDay % 60
        let hour12 = hour24 % 12 == 0 ? 12 : hour24 % 12
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(months[Int(month - 1)]) \(day), \(year) \(hour12):\(two(minute)):\(two(second)) \(hour24 < 12 ? "AM" : "PM")"
    }
}
