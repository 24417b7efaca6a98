import AuthBridgeCore

/// The server's checks of a WebAuthn ceremony, in the order of W3C Web Authentication Level 2
/// §7.1 (registering a new credential) and §7.2 (verifying an authentication assertion), as AM's
/// `RegisterFlow` and `AuthenticationFlow` make them (ForgeRock/am-external, releases/8.0.2,
/// auth-nodes …/webauthn/flows/). Each refusal is a typed reason; the node logs it and goes
/// along `failure`, as AM does.
enum WebAuthnCeremony {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case clientDataNotJSON
        case wrongType(expected: String)
        case wrongChallenge
        case wrongOrigin(String)
        case attestationObject
        case authenticatorData(WebAuthnAuthenticatorData.Error)
        case rpIdHashMismatch
        case userNotPresent
        case userNotVerified
        /// Registration: AT is not set or no credential follows; authentication: the opposite.
        case attestedData
        case unsupportedAttestationFormat(String)
        case badAttestationStatement
        case badSignature
        case badCredentialKey

        var description: String {
            switch self {
            case .clientDataNotJSON: "failed to parse the client data response"
            case .wrongType(let expected): "client data type was incorrect, expecting \(expected)"
            case .wrongChallenge: "challenge in response not valid for the challenge sent"
            case .wrongOrigin(let origin): "origin \(origin) in response not valid for the actual origin"
            case .attestationObject: "could not decode attestation object"
            case .authenticatorData(let error): "could not decode the authenticator data (\(error))"
            case .rpIdHashMismatch: "rpId hashes did not match"
            case .userNotPresent: "user present bit not set"
            case .userNotVerified: "user verified bit required and not set"
            case .attestedData: "attested credential data where none belongs, or missing where it does"
            case .unsupportedAttestationFormat(let format):
                "attestation claims to be in an unsupported format \(format)"
            case .badAttestationStatement: "Attestation failed."
            case .badSignature: "error in verifying webauthn signature"
            case .badCredentialKey: "the credential public key is not a usable key"
            }
        }

        /// The check that refused, as `emulator.lastFailure` names it (`check`).
        var check: String {
            switch self {
            case .clientDataNotJSON: "clientData"
            case .wrongType: "type"
            case .wrongChallenge: "challenge"
            case .wrongOrigin: "origin"
            case .attestationObject: "attestationObject"
            case .authenticatorData: "authenticatorData"
            case .rpIdHashMismatch: "rpId"
            case .userNotPresent: "userPresent"
            case .userNotVerified: "userVerified"
            case .attestedData: "attestedCredentialData"
            case .unsupportedAttestationFormat: "attestationFormat"
            case .badAttestationStatement: "attestation"
            case .badSignature: "signature"
            case .badCredentialKey: "credentialKey"
            }
        }
    }

    /// What the step asked for.
    struct Expectation {
        var challenge: [UInt8]
        var rpId: String
        var origins: Set<String>
        var userVerificationRequired: Bool
    }

    /// §7.1 steps 6–24 (token binding, extensions and the credential id's uniqueness are not
    /// checked by AM either): the verified authenticator data and the attestation type.
    static func register(
        clientDataJSON: String, attestationObject: [UInt8], _ expected: Expectation
    ) throws(Failure) -> (WebAuthnAuthenticatorData, WebAuthnAttestation.Kind) {
        try checkClientData(clientDataJSON, type: "webauthn.create", expected)
        let clientDataHash = SHA256.hash(Array(clientDataJSON.utf8))
        let object: WebAuthnAttestation.Object
        do { object = try WebAuthnAttestation.Object(attestationObject) } catch { throw .attestationObject }
        let authData = object.authenticatorData
        guard ConstantTime.equal(SHA256.hash(Array(expected.rpId.utf8)), authData.rpIdHash) else {
            throw .rpIdHashMismatch
        }
        guard authData.flags.contains(.userPresent) else { throw .userNotPresent }
        guard authData.flags.contains(.attestedCredentialData), let credential = authData.attestedCredential else {
            throw .attestedData
        }
        // A key that is no key (a point off the curve) could never verify an assertion.
        guard credential.publicKey.publicKey != nil else { throw .badCredentialKey }
        if expected.userVerificationRequired, !authData.flags.contains(.userVerified) { throw .userNotVerified }
        let kind = try WebAuthnAttestation.verify(object, clientDataHash: clientDataHash)
        return (authData, kind)
    }

    /// §7.2 steps 10–20: the decoded authenticator data once the assertion verifies against `key`.
    static func authenticate(
        clientDataJSON: String, authenticatorData: [UInt8], signature: [UInt8], key: COSEKey, _ expected: Expectation
    ) throws(Failure) -> WebAuthnAuthenticatorData {
        let authData: WebAuthnAuthenticatorData
        do { authData = try WebAuthnAuthenticatorData(bytes: authenticatorData) } catch {
            throw .authenticatorData(error)
        }
        try checkClientData(clientDataJSON, type: "webauthn.get", expected)
        guard ConstantTime.equal(SHA256.hash(Array(expected.rpId.utf8)), authData.rpIdHash) else {
            throw .rpIdHashMismatch
        }
        // AM asks for user presence only when it asks for verification (its FIDO conformance caveat).
        if expected.userVerificationRequired, !authData.flags.contains(.userPresent) { throw .userNotPresent }
        guard !authData.flags.contains(.attestedCredentialData), authData.attestedCredential == nil else {
            throw .attestedData
        }
        if expected.userVerificationRequired, !authData.flags.contains(.userVerified) { throw .userNotVerified }
        let signed = authenticatorData + SHA256.hash(Array(clientDataJSON.utf8))
        guard WebAuthnSignature.isValid(signature, of: signed, by: key) else { throw .badSignature }
        return authData
    }

    /// Steps 7.1.6–9 / 7.2.10–13: the JSON, its type, the challenge this step issued, an origin
    /// the node permits.
    private static func checkClientData(_ json: String, type: String, _ expected: Expectation) throws(Failure) {
        guard case .object(let data)? = try? JSONParser.parse(json), data.count > 0 else { throw .clientDataNotJSON }
        guard data["type"] == .string(type) else { throw .wrongType(expected: type) }
        guard case .string(let challenge)? = data["challenge"], let bytes = Base64URL.decode(challenge),
            ConstantTime.equal(bytes, expected.challenge)
        else { throw .wrongChallenge }
        guard case .string(let origin)? = data["origin"] else { throw .wrongOrigin("(none)") }
        guard WebAuthnOrigin.isPermitted(origin, by: expected.origins) else { throw .wrongOrigin(origin) }
    }
}

/// AM's origin match (`FlowUtilities.isOriginValid`): the same string, or the same scheme, host
/// and port (a default port written or left out), never for the `android`/`ios` app schemes.
enum WebAuthnOrigin {
    static func isPermitted(_ origin: String, by permitted: Set<String>) -> Bool {
        if permitted.contains(origin) { return true }
        guard let device = Parts(origin), !["android", "ios"].contains(device.scheme) else { return false }
        return permitted.contains { Parts($0) == device }
    }

    private struct Parts: Equatable {
        var scheme: String
        var host: String
        var port: Int

        init?(_ url: String) {
            guard let separator = url.firstRange(of: "://") else { return nil }
            scheme = url[..<separator.lowerBound].lowercased()
            let authority = url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : -1
            if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
                guard let port = Int(authority[authority.index(after: colon)...]) else { return nil }
                host = String(authority[..<colon])
                self.port = port
            } else {
                host = String(authority)
                port = defaultPort
            }
            guard !host.isEmpty, port >= 0 else { return nil }
        }
    }
}
