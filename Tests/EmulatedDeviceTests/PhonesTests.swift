import AuthBridgeCore
import Testing

@testable import EmulatedDevice

@Suite struct PhonesTests {
    @Test func aUsersFirstPhoneIsMadeOnceAndSavedUnderItsId() throws {
        let phones = Phones(random: SeededRandomSource(seed: 7))
        let first = phones.phone(of: "Ada")
        #expect(first.id == "ada")
        #expect(first.owner == "Ada")
        #expect(phones.phone(of: "ADA") == first)
        #expect(phones.takeStateEdits() == [StateEdit(["ada"], first.stateJSON)])
        #expect(phones.takeStateEdits().isEmpty)
    }

    @Test func aCloneIsTheSameUsersNextPhoneWithItsOwnToken() throws {
        let phones = Phones(random: SeededRandomSource(seed: 7))
        let credential = OathCredential(issuer: "ForgeRock", accountName: "ada", kind: .totp, secret: [1, 2, 3])
        phones.updatePhone(of: "ada") { $0.oath = [credential] }
        let copy = try #require(phones.clone(id: "ada"))
        #expect(copy.id == "ada#2")
        #expect(copy.oath == [credential])
        #expect(copy.deviceToken != phones.phone(id: "ada")?.deviceToken)
        #expect(phones.phones(of: "Ada").map(\.id) == ["ada", "ada#2"])
        #expect(phones.reset(id: "ada"))
        #expect(phones.phone(id: "ada")?.oath.isEmpty == true)
        #expect(phones.phone(id: "ada#2")?.oath.count == 1)
    }

    @Test func savedPhonesComeBackAndDamageIsNamed() throws {
        let phones = Phones(random: SeededRandomSource(seed: 7))
        phones.updatePhone(of: "ada") { phone in
            _ = PasskeyAuthenticator.register(
                ["challenge": "AAAA", "userId": "YWRh", "userName": "ada"], phone: &phone, origin: nil,
                defaultRpId: "example.com", random: SeededRandomSource(seed: 3))
        }
        #expect(phones.phone(id: "ada")?.passkeys.count == 1)
        let restored = Phones(random: SeededRandomSource(seed: 1))
        try restored.restoreState(phones.stateEntries, rollingBack: false)
        #expect(restored.all == phones.all)
        let bad = StateEntry(["ada"], ["id": "ada", "owner": "ada", "deviceToken": "t", "wings": 2])
        #expect(throws: StateError("phones.ada.wings: not saved state this authbridge knows")) {
            try restored.restoreState([bad], rollingBack: false)
        }
        let misplaced = StateEntry(["bob"], ["id": "ada", "owner": "ada", "deviceToken": "t"])
        #expect(throws: StateError.self) { try restored.restoreState([misplaced], rollingBack: false) }
    }
}
