import AuthBridgeCore

/// What the successor SDK's OATH client (`PingOath`: ping-ios-sdk `Oath/Oath/Models/OathCredential.swift`,
/// ping-android-sdk `mfa/oath/…/OathCredential.kt`) keeps about a credential beside its secret and
/// code parameters: the id it drew, the URI's extra parameters (`uid`, `oid`, `image`, `b`,
/// `policies`), the names the app shows, when it was added, which store holds it, and whether a
/// device policy locks it. A credential an authenticator app scanned for the old bridges has none.
public struct OathAppRecord: Equatable, Sendable {
    /// The client's id for it (a UUID), which JS names it by.
    public var id: String
    /// Where it is kept: the keychain service (iOS) or database (Android) the client was made with.
    public var store: String
    public var userId: String?
    public var resourceId: String?
    public var displayIssuer: String
    public var displayAccountName: String
    public var imageURL: String?
    public var backgroundColor: String?
    /// The `policies` JSON the server attached (`{"deviceTampering":{"score":0.8}}`), decoded.
    public var policies: String?
    public var isLocked = false
    public var lockingPolicy: String?
    /// Milliseconds since the epoch.
    public var createdAt: Double

    public init(
        id: String, store: String, displayIssuer: String, displayAccountName: String, createdAt: Double,
        userId: String? = nil, resourceId: String? = nil, imageURL: String? = nil, backgroundColor: String? = nil,
        policies: String? = nil
    ) {
        self.id = id
        self.store = store
        self.displayIssuer = displayIssuer
        self.displayAccountName = displayAccountName
        self.createdAt = createdAt
        self.userId = userId
        self.resourceId = resourceId
        self.imageURL = imageURL
        self.backgroundColor = backgroundColor
        self.policies = policies
    }

    var stateJSON: JSONValue {
        var json: JSONObject = [
            "id": .string(id), "store": .string(store), "displayIssuer": .string(displayIssuer),
            "displayAccountName": .string(displayAccountName), "isLocked": .bool(isLocked),
            "createdAt": .double(createdAt),
        ]
        let optional: [(String, String?)] = [
            ("userId", userId), ("resourceId", resourceId), ("imageURL", imageURL),
            ("backgroundColor", backgroundColor), ("policies", policies), ("lockingPolicy", lockingPolicy),
        ]
        for (key, value) in optional { if let value { json[key] = .string(value) } }
        return .object(json)
    }

    init(state reader: StateReader) throws(StateError) {
        id = try reader.string("id")
        store = try reader.string("store")
        displayIssuer = try reader.string("displayIssuer")
        displayAccountName = try reader.string("displayAccountName")
        isLocked = try reader.bool("isLocked")
        createdAt = try reader.double("createdAt")
        userId = try reader.optionalString("userId")
        resourceId = try reader.optionalString("resourceId")
        imageURL = try reader.optionalString("imageURL")
        backgroundColor = try reader.optionalString("backgroundColor")
        policies = try reader.optionalString("policies")
        lockingPolicy = try reader.optionalString("lockingPolicy")
    }
}

extension OathCredential {
    /// The parameters of an `otpauth://`/`mfauth://` URI the authenticator app ignores and the
    /// SDK's client keeps. `uid`, `oid` and `policies` are base64url when they decode to UTF-8
    /// text, as the parsers' `isBase64Encoded` test reads them (`OathUriParser.swift`/`.kt`).
    public struct URIExtras: Equatable, Sendable {
        public var userId: String?
        public var resourceId: String?
        public var imageURL: String?
        /// `b` as written, without a leading `#`.
        public var backgroundColor: String?
        public var policies: String?
    }

    /// Reads a URI as `init(uri:)` does, with its extra parameters.
    public static func parse(uri: String) throws(URIError) -> (OathCredential, URIExtras) {
        let parsed = try Self.parsing(uri)
        func decoded(_ name: String) -> String? {
            guard let text = parsed.parameters[name] else { return nil }
            return Self.base64Text(text) ?? text
        }
        let color = parsed.parameters["b"].map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
        let extras = URIExtras(
            userId: decoded("uid"), resourceId: decoded("oid"), imageURL: parsed.parameters["image"],
            backgroundColor: color, policies: decoded("policies"))
        return (parsed.credential, extras)
    }

    /// Base64url (or standard base64) text that decodes to UTF-8, else nil.
    static func base64Text(_ text: String) -> String? {
        let normalized = String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }.filter { $0 != "=" })
        guard !normalized.isEmpty, let bytes = Base64URL.decode(normalized), !bytes.isEmpty else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
