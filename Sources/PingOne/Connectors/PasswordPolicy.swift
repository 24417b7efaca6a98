import AuthBridgeCore

/// PingOne's default ("Standard") password policy, the one a new environment's population uses:
/// 8 to 255 characters, at least one each of upper case, lower case, digit and special, at most 2
/// of one character, at least 5 different ones. Sent with a form that sets a password
/// (`passwordPolicy`, which ping-ios-sdk `PasswordCollector.passwordPolicy()` reads), and checked
/// by the connector that stores the password, which names the unsatisfied requirements in the
/// error's `innerError` as PingOne's user API does (ping-ios-sdk `ErrorNode.swift` `InnerError`).
struct PasswordPolicy: Sendable {
    var minLength = 8
    var maxLength = 255
    var minCharacters: [(set: String, count: Int)] = [
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1), ("abcdefghijklmnopqrstuvwxyz", 1), ("0123456789", 1),
        ("~!@#$%^&*()-_=+[]{}|;:,.<>/?", 1),
    ]
    var maxRepeatedCharacters = 2
    var minUniqueCharacters = 5

    static let standard = PasswordPolicy()

    var json: JSONValue {
        [
            "id": "9a7e0f4c-4d7b-4c2a-9d55-2b1b5f0e7a11", "name": "Standard",
            "description": "A standard policy that incorporates industry best practices", "excludesProfileData": true,
            "notSimilarToCurrent": true, "excludesCommonlyUsed": true, "maxAgeDays": 182, "minAgeDays": 1,
            "maxRepeatedCharacters": .int(Int64(maxRepeatedCharacters)),
            "minUniqueCharacters": .int(Int64(minUniqueCharacters)), "history": ["count": 6, "retentionDays": 365],
            "lockout": ["failureCount": 5, "durationSeconds": 900],
            "length": ["min": .int(Int64(minLength)), "max": .int(Int64(maxLength))],
            "minCharacters": .object(JSONObject(minCharacters.map { ($0.set, .int(Int64($0.count))) })),
            "populationCount": 1, "default": true,
        ]
    }

    /// The requirements `password` breaks, each with its message; empty when it satisfies them.
    func unsatisfied(_ password: String) -> [(requirement: String, message: String)] {
        var out: [(String, String)] = []
        if !(minLength...maxLength).contains(password.count) {
            out.append(("length", "The password must be between \(minLength) and \(maxLength) characters."))
        }
        for (set, count) in minCharacters where password.filter({ set.contains($0) }).count < count {
            out.append(("minCharacters", "The password must contain at least \(count) of \(set)."))
        }
        var counts: [Character: Int] = [:]
        for character in password { counts[character, default: 0] += 1 }
        if (counts.values.max() ?? 0) > maxRepeatedCharacters {
            out.append(
                (
                    "maxRepeatedCharacters",
                    "The password must not repeat a character more than \(maxRepeatedCharacters) times."
                )
            )
        }
        if counts.count < minUniqueCharacters {
            out.append(
                ("minUniqueCharacters", "The password must have at least \(minUniqueCharacters) unique characters."))
        }
        return out
    }

    /// PingOne's detail for a password the policy refuses.
    func detail(_ password: String, target: String) -> ErrorDetail? {
        let broken = unsatisfied(password)
        guard !broken.isEmpty else { return nil }
        var inner: JSONObject = ["unsatisfiedRequirements": .array(broken.map { .string($0.requirement) })]
        for (requirement, message) in broken where inner[requirement] == nil { inner[requirement] = .string(message) }
        return ErrorDetail(
            code: "INVALID_VALUE", target: target,
            message: "User password did not satisfy password policy requirements", innerError: inner)
    }
}
