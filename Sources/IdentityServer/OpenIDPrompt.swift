/// OIDC's `prompt` (OpenID Connect Core §3.1.2.1) as AM reads it
/// (OpenIdentityPlatform/OpenAM `openam-oauth2/src/main/java/org/forgerock/openidconnect/OpenIdPrompt.java`):
/// space-separated values, lower-cased. AM refuses `none` with `login` or `consent`, and
/// `select_account`, which it does not support (`isValid`).
public struct OpenIDPrompt: Equatable, Sendable {
    public let original: String
    public let values: Set<String>

    public init(_ value: String?) {
        original = value ?? ""
        values = Set(original.lowercased().split(separator: " ").map(String.init))
    }

    public var none: Bool { values.contains("none") }
    public var login: Bool { values.contains("login") }

    public var isValid: Bool {
        !(none && (login || values.contains("consent"))) && !values.contains("select_account")
    }
}
