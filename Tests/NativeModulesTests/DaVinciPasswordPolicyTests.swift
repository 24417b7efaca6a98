import AuthBridgeCore
import Testing

@testable import NativeModules

/// A field's password policy as each mapper re-encodes it through the native `PasswordPolicy`.
@Suite struct DaVinciPasswordPolicyTests {
    static let policy: JSONValue = [
        "name": "strong", "length": ["min": 8, "max": 64], "minCharacters": ["0123456789": 1],
    ]

    @Test func iOSFillsEveryDefault() {
        #expect(
            DaVinciPasswordPolicy.map(Self.policy, platform: .ios)
                == [
                    "name": "strong", "description": "", "excludesProfileData": false, "notSimilarToCurrent": false,
                    "excludesCommonlyUsed": false, "maxAgeDays": 0, "minAgeDays": 0,
                    "maxRepeatedCharacters": .int(Int64.max), "minUniqueCharacters": 0,
                    "length": ["min": 8, "max": 64], "minCharacters": ["0123456789": 1], "populationCount": 0,
                    "createdAt": "", "updatedAt": "", "default": false,
                ])
    }

    @Test func androidWritesOnlyWhatDiffersFromItsDefaults() {
        #expect(
            DaVinciPasswordPolicy.map(Self.policy, platform: .android)
                == ["name": "strong", "length": ["min": 8, "max": 64], "minCharacters": ["0123456789": 1]])
    }

    @Test func aPolicyThatDoesNotDecodeIsLeftOut() {
        #expect(DaVinciPasswordPolicy.map(["length": "not-a-dict"], platform: .ios) == nil)
        #expect(DaVinciPasswordPolicy.map(["history": ["count": 3]], platform: .android) == nil)
        #expect(
            DaVinciPasswordPolicy.map(["history": ["count": 3]], platform: .ios)?["history"] == [
                "count": 3, "retentionDays": 0,
            ])
    }
}
