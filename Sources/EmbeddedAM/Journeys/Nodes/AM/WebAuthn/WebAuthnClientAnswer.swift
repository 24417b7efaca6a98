import AuthBridgeCore

/// What a client writes into the `webAuthnOutcome` hidden value, read as AM reads it
/// (`WebAuthnOutcomeDeserializer` and `ClientScriptUtilities` in ForgeRock/am-external,
/// releases/8.0.2, auth-nodes …/webauthn/): JSON with `error` or `legacyData` (the SDKs send it
/// when the metadata says `supportsJsonResponse`), else the "legacy" string itself:
/// `unsupported`, `ERROR::<DOMException name>:<message>`, or the ceremony's result as `::`-joined
/// fields, byte arrays written as comma-separated signed bytes (JavaScript's
/// `new Int8Array(buffer).toString()`, as `fr-webauthn` in ForgeRock/forgerock-javascript-sdk
/// and AM's own scripts write them).
enum WebAuthnClientAnswer: Equatable {
    case unsupported
    /// AM's `WebAuthnDomException.toString()`: `<type>:<message>`.
    case domError(String)
    /// The ceremony's result, still to be split by the node that asked.
    case result(String)

    /// The DOMException names AM's `WebAuthnDomExceptionType` knows; another one makes AM's
    /// node throw.
    static let domExceptionTypes: Set<String> = [
        "AbortError", "ConstraintError", "DataError", "EncodingError", "InvalidStateError", "NetworkError",
        "NotAllowedError", "NotSupportedError", "SecurityError", "TimeoutError", "UnknownError",
    ]

    /// nil for a DOMException type AM does not know (AM's node fails with an exception).
    init?(_ raw: String) {
        if case .object(let json)? = try? JSONParser.parse(raw), json["legacyData"] != nil || json["error"] != nil {
            if let error = json["error"] {
                guard let parsed = Self.parseDOMError(JourneyValues.text(error)) else { return nil }
                self = parsed
            } else {
                self = .result(JourneyValues.text(json["legacyData"]))
            }
            return
        }
        if raw == "unsupported" {
            self = .unsupported
        } else if raw.hasPrefix("ERROR") {
            guard let parsed = Self.parseDOMError(String(raw.dropFirst("ERROR::".count))) else { return nil }
            self = parsed
        } else {
            self = .result(raw)
        }
    }

    /// `WebAuthnDomException.parse`: no colon → UnknownError with the whole text.
    private static func parseDOMError(_ description: String) -> WebAuthnClientAnswer? {
        guard let colon = description.firstIndex(of: ":") else { return .domError("UnknownError:\(description)") }
        let name = description[..<colon].trimmingSpaces
        let message = description[description.index(after: colon)...]
        if name.isEmpty { return .domError("UnknownError:\(message)") }
        guard domExceptionTypes.contains(name) else { return nil }
        return WebAuthnClientAnswer.domError("\(name):\(message)")
    }
}

/// The fields of a registration result: `clientDataJSON::attestationObject::credentialId[::deviceName]`.
struct WebAuthnRegistrationAnswer {
    var clientDataJSON: String
    var attestationObject: [UInt8]
    /// base64url, as the browser's `credential.id`.
    var credentialId: String
    var deviceName: String?

    /// nil when the fields are missing or a byte list does not parse (AM's node throws then).
    init?(_ result: String) {
        let fields = result.components(separatedBy: "::")
        guard fields.count >= 3, let attestation = signedBytes(fields[1]) else { return nil }
        clientDataJSON = fields[0]
        attestationObject = attestation
        credentialId = fields[2]
        deviceName = fields.count == 4 ? fields[3] : nil
    }
}

/// The fields of an authentication result:
/// `clientDataJSON::authenticatorData::signature::credentialId[::userHandle]`.
struct WebAuthnAuthenticationAnswer {
    var clientDataJSON: String
    var authenticatorData: [UInt8]
    var signature: [UInt8]
    var credentialId: String
    /// The user handle as the client wrote it (the registration's `userId`, base64url of the
    /// username); AM reads it only for usernameless nodes.
    var userHandle: String?

    init?(_ result: String) {
        let fields = result.components(separatedBy: "::")
        guard fields.count >= 4, let data = signedBytes(fields[1]), let signature = signedBytes(fields[2]) else {
            return nil
        }
        clientDataJSON = fields[0]
        authenticatorData = data
        self.signature = signature
        credentialId = fields[3]
        userHandle = fields.count >= 5 ? fields[4] : nil
    }
}

/// Java's `Byte.parseByte` over a comma list: each −128…127.
private func signedBytes(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count / 3)
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        guard let value = Int8(part) else { return nil }
        bytes.append(UInt8(bitPattern: value))
    }
    return bytes
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension String {
    /// `String.split` by a separator string, keeping empty fields (Java's `split` drops only
    /// trailing empty ones, which no field here can be).
    fileprivate func components(separatedBy separator: String) -> [String] {
        var fields: [String] = []
        var rest = self[...]
        while let range = rest.firstRange(of: separator) {
            fields.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        fields.append(String(rest))
        return fields
    }
}
