import AuthBridgeCore

/// AM's side of a passkey ceremony: the options AM's WebAuthn MetadataCallback carries (its
/// `data`, ForgeRock/am-external releases/8.0.2 `WebAuthnRegistrationNode.getScriptContext`)
/// and the answer the SDKs write into the `webAuthnOutcome` hidden value (`fr-webauthn/index.ts`
/// in ForgeRock/forgerock-javascript-sdk, ping-ios `Fido/Journey/FidoRegistrationCallback.swift`,
/// ping-android `mfa/fido/…/journey/FidoRegistrationCallback.kt`):
/// `clientDataJSON::attestationObject::credentialId[::deviceName]` and
/// `clientDataJSON::authenticatorData::signature::credentialId::userHandle`, byte arrays as
/// comma-separated signed bytes. The old SDK's bridges and the Ping SDK's FIDO module both use it.
extension PasskeyAuthenticator {
    /// The registration options in AM's metadata; `defaultRpId` when it names none.
    public static func createOptions(_ data: JSONObject, defaultRpId: String) -> Result<CreateOptions, Failure> {
        guard let challenge = challenge(data) else { return .failure(.data("no challenge")) }
        guard case .string(let userId)? = data["userId"] else { return .failure(.data("no userId")) }
        var algorithms: [Int]?
        if let params = data["_pubKeyCredParams"]?.arrayValue {
            algorithms = params.compactMap { param in param["alg"]?.intValue.map { Int($0) } }
        }
        return .success(
            CreateOptions(
                challenge: challenge, rpId: relyingPartyId(data) ?? defaultRpId, userHandle: Array(userId.utf8),
                userName: data["userName"]?.stringValue ?? "", algorithms: algorithms,
                excluded: credentialIds(data["_excludeCredentials"])))
    }

    /// The authentication options in AM's metadata.
    public static func getOptions(_ data: JSONObject, defaultRpId: String) -> Result<GetOptions, Failure> {
        guard let challenge = challenge(data) else { return .failure(.data("no challenge")) }
        return .success(
            GetOptions(
                challenge: challenge, rpId: relyingPartyId(data) ?? defaultRpId,
                allowed: credentialIds(data["_allowCredentials"])))
    }

    /// The registration as the SDKs write it (`deviceName` appended when given).
    public static func outcome(_ r: Registration, deviceName: String? = nil) -> String {
        var text = "\(r.clientDataJSON)::\(signed(r.attestationObject))::\(Base64URL.encode(r.credentialId))"
        if let deviceName, !deviceName.isEmpty { text += "::\(deviceName)" }
        return text
    }

    /// The assertion as the SDKs write it; the user handle's bytes read as text (the relying
    /// party's `userId` again).
    public static func outcome(_ a: Assertion) -> String {
        [
            a.clientDataJSON, signed(a.authenticatorData), signed(a.signature), Base64URL.encode(a.credentialId),
            String(decoding: a.userHandle, as: UTF8.self),
        ].joined(separator: "::")
    }

    /// `navigator.credentials.create` with AM's registration metadata: the outcome a browser
    /// (and the old SDKs) write, or the failure.
    public static func register(
        _ data: JSONObject, phone: inout Phone, origin: String?, defaultRpId: String, random: RandomSource
    ) -> Result<String, Failure> {
        createOptions(data, defaultRpId: defaultRpId).flatMap { options in
            create(options, phone: &phone, origin: origin, random: random).map { outcome($0) }
        }
    }

    /// `navigator.credentials.get` with AM's authentication metadata.
    public static func authenticate(
        _ data: JSONObject, phone: inout Phone, origin: String?, defaultRpId: String
    ) -> Result<String, Failure> {
        getOptions(data, defaultRpId: defaultRpId).flatMap { options in
            get(options, phone: &phone, origin: origin).map { outcome($0) }
        }
    }

    /// `_relyingPartyId`, or the old `id: "…",` / `rpId: "…",` string; nil when none is named.
    public static func relyingPartyId(_ data: JSONObject) -> String? {
        if case .string(let id)? = data["_relyingPartyId"], !id.isEmpty { return id }
        guard case .string(let text)? = data["relyingPartyId"], !text.isEmpty else { return nil }
        let parts = text.split(separator: "\"")
        return parts.count >= 2 ? String(parts[1]) : text
    }

    /// `_excludeCredentials` / `_allowCredentials`: ids as arrays of signed bytes, as base64url.
    public static func credentialIds(_ value: JSONValue?) -> Set<String> {
        Set(
            (value?.arrayValue ?? []).compactMap { entry in
                entry.objectValue?["id"]?.arrayValue.map { bytes in
                    Base64URL.encode(bytes.map { UInt8(bitPattern: Int8(truncatingIfNeeded: $0.intValue ?? 0)) })
                }
            })
    }

    /// Standard base64, as the SDKs read it with `atob`.
    private static func challenge(_ data: JSONObject) -> [UInt8]? {
        guard case .string(let text)? = data["challenge"] else { return nil }
        return Base64.decode(text)
    }

    /// JavaScript's `new Int8Array(bytes).toString()`.
    static func signed(_ bytes: [UInt8]) -> String {
        bytes.map { String(Int8(bitPattern: $0)) }.joined(separator: ",")
    }
}

extension PasskeyAuthenticator.Failure {
    /// The hidden value a browser (and the old SDKs, which run the same script) write for it
    /// (`ERROR::<DOMException name>:<message>`).
    public var browserOutcome: String {
        switch self {
        case .notAllowed, .cancelled, .timedOut:
            "ERROR::NotAllowedError:The operation either timed out or was not allowed."
        case .invalidState:
            "ERROR::InvalidStateError:The user attempted to register an authenticator that contains one of the credentials already registered with the relying party."
        case .notSupported: "ERROR::NotSupportedError:The operation is not supported."
        case .data(let what): "ERROR::DataError:\(what)"
        }
    }
}
