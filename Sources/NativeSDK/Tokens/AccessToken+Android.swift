import AuthBridgeCore

extension AccessToken {
    /// `new Gson().toJson(accessToken)` of forgerock-auth 4.6 (`ForgeRock/forgerock-android-sdk`
    /// `forgerock-auth/src/main/java/org/forgerock/android/auth/AccessToken.kt`): `scope` an
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
                "value": .string(sessionToken), "successUrl": .string("/enduser/?realm=\(realmPath)"),
                "realm": .string(realmPath),
            ]
        }
        object["isPersisted"] = false
        return .object(object)
    }

    /// `DateFormat.getDateTimeInstance()` in the US locale, as Gson writes a `Date`:
    /// "Jan 5, 2025 10:00:00 AM". The emulator has no device time zone: it is UTC.
    static func javaMediumDateTime(_ unixSeconds: Double) -> String {
        let t = CivilTime(unixSeconds: unixSeconds)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let hour12 = t.hour % 12 == 0 ? 12 : t.hour % 12
        return "\(months[Int(t.month - 1)]) \(t.day), \(t.year) \(hour12):\(CivilTime.padded(t.minute, 2)):"
            + "\(CivilTime.padded(t.second, 2)) \(t.hour < 12 ? "AM" : "PM")"
    }
}
