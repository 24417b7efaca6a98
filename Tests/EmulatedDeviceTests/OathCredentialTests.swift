import AuthBridgeCore
import Testing

@testable import EmulatedDevice

/// The phone's authenticator app: what it reads from an `otpauth://` URI, what it refuses, and
/// the codes it shows.
@Suite struct OathCredentialTests {
    /// The URI AM's OATH Registration node writes, and the RFC 6238 seed as its secret.
    static let rfcSecret = Base32.encode(Array("12345678901234567890".utf8))
    static let amURI =
        "otpauth://totp/ForgeRock:demo?secret=\(rfcSecret)&period=30&digits=8&b=032b75&image=&uid=ZGVtbw&oid=MTIz"

    @Test func readsAMsURIAndShowsRFC6238Codes() throws {
        let credential = try OathCredential(uri: Self.amURI)
        #expect(credential.id == "ForgeRock:demo")
        #expect(credential.kind == .totp && credential.digits == .eight && credential.period == 30)
        #expect(credential.algorithm == .sha1)
        #expect(credential.code(at: 59) == "94287082")
        #expect(credential.code(at: 1_111_111_109) == "07081804")
    }

    @Test func hotpCodesMoveTheCounterOn() throws {
        var credential = try OathCredential(
            uri: "otpauth://hotp/Acme:ada?secret=\(Self.rfcSecret)&counter=1&issuer=Acme")
        #expect(credential.nextCode(at: 0) == "287082")
        #expect(credential.nextCode(at: 0) == "359152")
        #expect(credential.counter == 3)
    }

    @Test func lowercaseUnpaddedSecretsAndEscapedLabelsAreRead() throws {
        let credential = try OathCredential(
            uri: "otpauth://totp/Acme%20Bank:ada%40example.com?secret=gezdgnbvgy3tqojqgezdgnbvgy3tqojq&algorithm=sha512"
        )
        #expect(credential.issuer == "Acme Bank" && credential.accountName == "ada@example.com")
        #expect(credential.algorithm == .sha512)
    }

    @Test(arguments: [
        ("https://example.com", OathCredential.URIError.notOtpauth),
        ("otpauth://motp/A:b?secret=GE", .unknownType("motp")),
        ("otpauth://totp?secret=GE", .missingAccountName),
        ("otpauth://totp/A:?secret=GE", .missingAccountName),
        ("otpauth://totp/A:b?period=30", .missingSecret),
        ("otpauth://totp/A:b?secret=GE1", .badSecret(.invalidCharacter(offset: 2))),
        ("otpauth://totp/A:b?secret=GE&secret=GE", .badParameter("secret")),
        ("otpauth://totp/A:b?secret", .badParameter("secret")),
        ("otpauth://totp/A:b?secret=GE&digits=7", .badValue(parameter: "digits", value: "7")),
        ("otpauth://totp/A:b?secret=GE&period=0", .badValue(parameter: "period", value: "0")),
        ("otpauth://totp/A:b?secret=GE&algorithm=MD5", .badValue(parameter: "algorithm", value: "MD5")),
        ("otpauth://hotp/A:b?secret=GE&counter=-1", .badValue(parameter: "counter", value: "-1")),
        ("otpauth://totp/A:b?secret=GE&issuer=C", .issuerMismatch(label: "A", parameter: "C")),
        ("otpauth://totp/A%2:b?secret=GE", .badEscape),
        ("otpauth://totp/A%FF:b?secret=GE", .badEscape),
    ])
    func malformedURIsAreRefusedByName(uri: String, error: OathCredential.URIError) {
        #expect(throws: error) { try OathCredential(uri: uri) }
    }

    @Test func scanningTheSameAccountAgainReplacesIt() throws {
        var phone = Phone(id: "demo", owner: "demo", deviceToken: "t")
        try phone.scanOath(Self.amURI)
        try phone.scanOath("otpauth://totp/ForgeRock:demo?secret=GEZDGNBV")
        try phone.scanOath("otpauth://totp/Other:demo?secret=GEZDGNBV")
        #expect(phone.oath.map(\.id) == ["ForgeRock:demo", "Other:demo"])
        #expect(phone.oath[0].secret == Array("12345".utf8))
        #expect(throws: OathCredential.URIError.missingSecret) { try phone.scanOath("otpauth://totp/X:y") }
        #expect(phone.oath.count == 2)
    }

    @Test func savedAndRestoredWithoutShowingTheSecret() throws {
        var credential = try OathCredential(uri: "otpauth://hotp/A:b?secret=\(Self.rfcSecret)&counter=7&digits=8")
        _ = credential.nextCode(at: 0)
        let restored = try OathCredential(state: StateReader(credential.stateJSON, path: "oath[0]"))
        #expect(restored == credential)
        #expect(credential.summaryJSON["secret"] == nil && credential.summaryJSON["counter"] == 8)
    }

    /// The SDK client's extras: `mfauth://` with a base64url issuer, `uid`/`oid`/`policies` decoded
    /// when they are base64url text, `b` without its `#`; the record saved with the credential.
    @Test func theSDKClientsExtrasAreReadAndSavedWithTheCredential() throws {
        let uri =
            "mfauth://totp/Acme:ada?secret=\(Self.rfcSecret)&issuer=QWNtZQ&uid=YWRh&oid=plain&b=%23ff0000"
            + "&image=https%3A%2F%2Fa.example%2Fi.png&policies=eyJkZXZpY2VUYW1wZXJpbmciOnt9fQ"
        var (credential, extras) = try OathCredential.parse(uri: uri)
        #expect(credential.issuer == "Acme" && credential.app == nil)
        #expect(
            extras
                == OathCredential.URIExtras(
                    userId: "ada", resourceId: "plain", imageURL: "https://a.example/i.png", backgroundColor: "ff0000",
                    policies: #"{"deviceTampering":{}}"#))
        #expect(throws: OathCredential.URIError.notOtpauth) { try OathCredential(uri: "pushauth://push/A:b?secret=GE") }
        var record = OathAppRecord(
            id: "ID-1", store: "keychain:s", displayIssuer: "Acme", displayAccountName: "ada", createdAt: 1000,
            userId: extras.userId, policies: extras.policies)
        record.isLocked = true
        record.lockingPolicy = "deviceTampering"
        credential.app = record
        let restored = try OathCredential(state: StateReader(credential.stateJSON, path: "oath[0]"))
        #expect(restored == credential)
    }
}
