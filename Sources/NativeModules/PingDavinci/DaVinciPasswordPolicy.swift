import AuthBridgeCore
import NativeSDK

/// A field's `passwordPolicy` as the mappers hand it to JS: decoded into the native SDK's
/// `PasswordPolicy` and encoded again (ping-ios `Davinci/Davinci/collector/PasswordPolicy.swift`
/// with Swift's `JSONEncoder`; ping-android `davinci/…/collector/PasswordPolicy.kt` with
/// kotlinx's `Json`). iOS writes every member, defaults filled in (`Int.max` for the open
/// maxima); Android writes only the members that differ from its defaults (`encodeDefaults` is
/// off), with `Int.MAX_VALUE` (2³¹−1) as its open maximum. A policy that does not decode (a
/// member of the wrong type; on Android a `history`, `lockout` or `length` missing one of its
/// numbers) is left out.
enum DaVinciPasswordPolicy {
    private struct Member {
        let name: String
        let kind: Kind
    }

    private enum Kind {
        case string, bool, int(iosDefault: Int64, androidDefault: Int64), counts([String]), minCharacters
    }

    private static let members: [Member] = [
        Member(name: "name", kind: .string), Member(name: "description", kind: .string),
        Member(name: "excludesProfileData", kind: .bool), Member(name: "notSimilarToCurrent", kind: .bool),
        Member(name: "excludesCommonlyUsed", kind: .bool),
        Member(name: "maxAgeDays", kind: .int(iosDefault: 0, androidDefault: 0)),
        Member(name: "minAgeDays", kind: .int(iosDefault: 0, androidDefault: 0)),
        Member(name: "maxRepeatedCharacters", kind: .int(iosDefault: Int64.max, androidDefault: Int64(Int32.max))),
        Member(name: "minUniqueCharacters", kind: .int(iosDefault: 0, androidDefault: 0)),
        Member(name: "history", kind: .counts(["count", "retentionDays"])),
        Member(name: "lockout", kind: .counts(["failureCount", "durationSeconds"])),
        Member(name: "length", kind: .counts(["min", "max"])),
        Member(name: "minCharacters", kind: .minCharacters),
        Member(name: "populationCount", kind: .int(iosDefault: 0, androidDefault: 0)),
        Member(name: "createdAt", kind: .string), Member(name: "updatedAt", kind: .string),
        Member(name: "default", kind: .bool),
    ]

    static func map(_ policy: JSONValue?, platform: Platform) -> JSONValue? {
        guard case .object(let object)? = policy else { return nil }
        var out: JSONObject = [:]
        for member in members {
            let value = object[member.name].flatMap { $0 == .null ? nil : $0 }
            switch member.kind {
            case .string:
                guard let value else {
                    if platform == .ios { out[member.name] = "" }
                    continue
                }
                guard case .string = value else { return nil }
                if platform == .ios || value != "" { out[member.name] = value }
            case .bool:
                guard let value else {
                    if platform == .ios { out[member.name] = false }
                    continue
                }
                guard case .bool(let flag) = value else { return nil }
                if platform == .ios || flag { out[member.name] = value }
            case .int(let iosDefault, let androidDefault):
                guard let value else {
                    if platform == .ios { out[member.name] = .int(iosDefault) }
                    continue
                }
                guard let number = value.intValue else { return nil }
                if platform == .ios || number != androidDefault { out[member.name] = .int(number) }
            case .counts(let names):
                guard let value else {
                    // iOS: an absent length is `Length()`; history and lockout stay absent.
                    if platform == .ios, member.name == "length" { out["length"] = ["min": 0, "max": .int(Int64.max)] }
                    continue
                }
                guard case .object(let counts) = value else { return nil }
                var encoded: JSONObject = [:]
                for name in names {
                    if let number = counts[name]?.intValue {
                        encoded[name] = .int(number)
                    } else if counts[name] == nil || counts[name] == .null, platform == .ios {
                        // iOS decodes each with a default (Length's max: Int.max).
                        encoded[name] = .int(member.name == "length" && name == "max" ? Int64.max : 0)
                    } else {
                        return nil
                    }
                }
                if platform == .android, member.name == "length", encoded == ["min": 0, "max": .int(Int64(Int32.max))] {
                    continue
                }
                out[member.name] = .object(encoded)
            case .minCharacters:
                guard let value else {
                    if platform == .ios { out[member.name] = .object([:]) }
                    continue
                }
                guard case .object(let counts) = value else { return nil }
                var encoded: JSONObject = [:]
                for entry in counts.members {
                    guard let number = entry.value.intValue else { return nil }
                    encoded[entry.key] = .int(number)
                }
                if platform == .ios || !encoded.members.isEmpty { out[member.name] = .object(encoded) }
            }
        }
        return .object(out)
    }
}
