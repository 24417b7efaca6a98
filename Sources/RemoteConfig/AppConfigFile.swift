import AuthBridgeCore
import IdentityServer

/// The app's own ForgeRock configuration as `RemoteServerSettings`: an iOS `FRAuthConfig.plist`
/// (XML), an Android `res/values/strings.xml`, or the newer samples' FROptions as JSON. Both
/// XML files are flat lists of string-valued keys, so a small scanner reads them; no XML library
/// is linked for it. A missing or malformed key stops the start naming the file and the key.
public enum AppConfigFile {
    public struct Invalid: Error, Sendable, Equatable {
        public let message: String
    }

    /// FROptions' JSON names for the same keys.
    static let jsonNames = [
        "forgerock_url": "url", "forgerock_realm": "realm", "forgerock_cookie_name": "cookieName",
        "forgerock_oauth_client_id": "oauthClientId", "forgerock_oauth_redirect_uri": "oauthRedirectUri",
        "forgerock_oauth_scope": "oauthScope", "forgerock_oauth_threshold": "oauthThreshold",
        "forgerock_auth_service_name": "authServiceName",
        "forgerock_registration_service_name": "registrationServiceName",
        "forgerock_timeout": "timeout",
    ].merging(
        RemoteServerSettings.Endpoint.allCases.map { ($0.configKey, $0.rawValue) },
        uniquingKeysWith: { first, _ in first })

    /// FROptions' discovery URL (the Ping SDK samples' `discoveryEndpoint`). The plist and
    /// strings.xml have no such key: the ForgeRock SDKs take it in code (`FROptions.discover`).
    static let discoveryName = "discoveryEndpoint"

    /// What a server or discovery URL must start with.
    public static func isHTTPURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }

    public static func load(path: String) throws(Invalid) -> RemoteServerSettings {
        let text: String
        switch FileBytes.read(path: path) {
        case .success(let bytes): text = String(decoding: bytes, as: UTF8.self)
        case .failure(let error): throw Invalid(message: "cannot read the config file \(path): \(error.text)")
        }
        return try settings(text, file: path)
    }

    public static func settings(_ text: String, file: String) throws(Invalid) -> RemoteServerSettings {
        let values: [String: String]
        let reader: Reader
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("{") {
            var values = try json(String(trimmed), file: file)
            let discovery = values.removeValue(forKey: discoveryName)?.trimmed
            var settings = try build(values, file: file, reader: .either)
            if let discovery {
                guard isHTTPURL(discovery) else {
                    throw Invalid(
                        message:
                            "\(file): \(discoveryName) must be an http(s) URL such as https://tenant/am/oauth2/alpha/.well-known/openid-configuration, got \(discovery)"
                    )
                }
                settings.discoveryURL = discovery
            }
            return settings
        } else if text.contains("<plist") {
            values = try plist(text, file: file)
            reader = .iOS
        } else if text.contains("<resources") {
            values = androidStrings(text)
            reader = .android
        } else {
            throw Invalid(
                message: "\(file) is neither an FRAuthConfig.plist, an Android strings.xml nor FROptions JSON")
        }
        return try build(values, file: file, reader: reader)
    }

    static func build(_ values: [String: String], file: String, reader: Reader) throws(Invalid) -> RemoteServerSettings
    {
        func required(_ key: String) throws(Invalid) -> String {
            guard let value = values[key]?.trimmed, !value.isEmpty else {
                throw Invalid(message: "\(file): \(key) is missing or empty")
            }
            return value
        }
        func number(_ key: String) throws(Invalid) -> Double? {
            guard let text = values[key]?.trimmed else { return nil }
            guard let value = Double(text), value > 0, value < 86_400 else {
                throw Invalid(message: "\(file): \(key) must be a positive number of seconds, got \(text)")
            }
            return value
        }
        let url = try required("forgerock_url")
        guard isHTTPURL(url) else {
            throw Invalid(
                message:
                    "\(file): forgerock_url must be an http(s) URL such as https://tenant.example.com/am, got \(url)")
        }
        var settings = RemoteServerSettings(
            url: url.hasSuffix("/") ? String(url.dropLast()) : url, realm: try required("forgerock_realm"),
            oauthClientId: try required("forgerock_oauth_client_id"),
            oauthRedirectUri: try required("forgerock_oauth_redirect_uri"))
        settings.oauthScope = try required("forgerock_oauth_scope")
        if let cookie = values["forgerock_cookie_name"]?.trimmed {
            guard !cookie.isEmpty, !cookie.contains(where: { $0 == ";" || $0 == "=" || $0.isWhitespace }) else {
                throw Invalid(message: "\(file): forgerock_cookie_name is not a cookie name: \(cookie)")
            }
            settings.cookieName = cookie
        }
        if let threshold = try number("forgerock_oauth_threshold") { settings.oauthThreshold = threshold }
        if let timeout = try number("forgerock_timeout") { settings.timeout = timeout }
        // iOS names the journeys `forgerock_auth_service_name`; Android's strings.xml
        // `forgerock_auth_service` (forgerock-android-sdk's res/values/strings.xml, ConfigHelper).
        settings.authServiceName = (values["forgerock_auth_service_name"] ?? values["forgerock_auth_service"])?.trimmed
        settings.registrationServiceName =
            (values["forgerock_registration_service_name"] ?? values["forgerock_registration_service"])?.trimmed
        settings.endpoints = try endpoints(values, file: file, reader: reader)
        settings.source = file
        return settings
    }

    /// `<key>forgerock_url</key><string>…</string>`: strings, integers, reals; other keys ignored.
    static func plist(_ text: String, file: String) throws(Invalid) -> [String: String] {
        var values: [String: String] = [:]
        var rest = Substring(text)
        while let keyOpen = rest.firstRange(of: "<key>") {
            guard let keyClose = rest[keyOpen.upperBound..<rest.endIndex].firstRange(of: "</key>") else {
                throw Invalid(message: "\(file): a <key> is not closed")
            }
            let key = unescapeXML(rest[keyOpen.upperBound..<keyClose.lowerBound])
            rest = rest[keyClose.upperBound...]
            let value = rest.drop { $0.isWhitespace }
            for tag in ["string", "integer", "real"] where value.hasPrefix("<\(tag)>") {
                guard let close = value.firstRange(of: "</\(tag)>") else {
                    throw Invalid(message: "\(file): the value of \(key) is not closed")
                }
                values[key] = unescapeXML(
                    value[value.index(value.startIndex, offsetBy: tag.count + 2)..<close.lowerBound])
            }
            if key.hasPrefix("forgerock_"), values[key] == nil, jsonNames[key] != nil, !value.hasPrefix("<string/>") {
                throw Invalid(message: "\(file): \(key) must be a <string>, <integer> or <real>")
            }
        }
        return values
    }

    /// `<string name="forgerock_url">…</string>` with Android's `\'` and `\"` escapes.
    static func androidStrings(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        var rest = Substring(text)
        while let open = rest.firstRange(of: "<string ") {
            guard let tagEnd = rest[open.upperBound..<rest.endIndex].firstRange(of: ">") else { break }
            let attributes = rest[open.upperBound..<tagEnd.lowerBound]
            rest = rest[tagEnd.upperBound...]
            guard !attributes.hasSuffix("/"), let close = rest.firstRange(of: "</string>") else { continue }
            var value = unescapeXML(rest[..<close.lowerBound])
            rest = rest[close.upperBound...]
            guard let nameStart = attributes.firstRange(of: "name=\""),
                let nameEnd = attributes[nameStart.upperBound..<attributes.endIndex].firstRange(of: "\"")
            else { continue }
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            value = value.replacingAll("\\'", with: "'").replacingAll("\\\"", with: "\"")
            values[String(attributes[nameStart.upperBound..<nameEnd.lowerBound])] = value
        }
        return values
    }

    static func json(_ text: String, file: String) throws(Invalid) -> [String: String] {
        let parsed: JSONValue
        do { parsed = try JSONParser.parse(text) } catch {
            throw Invalid(message: "\(file) is not valid JSON: \(error)")
        }
        guard case .object(let object) = parsed else {
            throw Invalid(message: "\(file): FROptions must be a JSON object")
        }
        let options = JSONReader<JSONReadError>(object: object)
        var values: [String: String] = [:]
        // A URL or a path is text: a number there is a mistake, not a path named "7".
        let textOnly = Set(RemoteServerSettings.Endpoint.allCases.map(\.rawValue) + [discoveryName])
        // The samples' FROptions JSON uses camelCase names; iOS's `FROptions` is Codable with
        // the plist's `forgerock_…` keys, so a JSON it wrote has those: both are read.
        for (key, name) in jsonNames.merging([discoveryName: discoveryName], uniquingKeysWith: { first, _ in first }) {
            let field = options[object[name] != nil ? name : key]
            if textOnly.contains(name) {
                do { values[key] = try field.optionalString() } catch { throw Invalid(message: "\(file): \(error)") }
                continue
            }
            switch field.present {
            case nil: break
            case .string(let text)?: values[key] = text
            case .int(let number)?: values[key] = String(number)
            case .double(let number)?: values[key] = String(number)
            case let other?:
                throw Invalid(message: "\(file): \(field.location) must be a string or a number, got \(other.typeName)")
            }
        }
        return values
    }

    static func unescapeXML<Text: StringProtocol>(_ text: Text) -> String {
        var out = String(text)
        if out.hasPrefix("<![CDATA["), out.hasSuffix("]]>") { return String(out.dropFirst(9).dropLast(3)) }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            out = out.replacingAll(entity, with: character)
        }
        return out
    }
}

extension String {
    var trimmed: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// Foundation-free on purpose: the default, fully static binary reads config files too.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
