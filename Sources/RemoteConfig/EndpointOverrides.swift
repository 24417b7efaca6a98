import IdentityServer

/// The app's own endpoint overrides: `forgerock_authenticate_endpoint` … `forgerock_endsession_endpoint`
/// in FRAuthConfig.plist and strings.xml, `authenticateEndpoint` … `endSessionEndpoint` in FROptions.
/// Both SDKs take an absolute http(s) URL as it is and put a path under `forgerock_url`; an empty
/// value is no override (Android ships them empty). A value that is neither stops the start.
extension AppConfigFile {
    /// Which SDK reads the file, for the two places where they differ.
    enum Reader {
        /// iOS `ServerConfigBuilder` appends a path to the URL as written, so it must start with `/`.
        case iOS
        /// Android also reads the deprecated `forgerock_logout_endpoint` when the session one is empty.
        case android
        /// FROptions JSON: either SDK; a path is joined to the URL with one `/`, as Android joins it.
        case either
    }

    static func endpoints(
        _ values: [String: String], file: String, reader: Reader
    ) throws(Invalid) -> [RemoteServerSettings.Endpoint: String] {
        var found: [RemoteServerSettings.Endpoint: String] = [:]
        for endpoint in RemoteServerSettings.Endpoint.allCases {
            var key = endpoint.configKey
            var value = values[key]?.trimmed ?? ""
            if value.isEmpty, endpoint == .session, reader == .android {
                key = "forgerock_logout_endpoint"
                value = values[key]?.trimmed ?? ""
            }
            guard !value.isEmpty else { continue }
            let name = reader == .either ? endpoint.rawValue : key
            if isHTTPURL(value) {
                let afterScheme = value.drop { $0 != ":" }.dropFirst(3)
                guard let host = afterScheme.split(separator: "/", omittingEmptySubsequences: false).first,
                    !host.isEmpty
                else {
                    throw Invalid(message: "\(file): \(name) names no host: \(value)")
                }
            } else if value.contains("://") || value.contains(where: { $0.isWhitespace }) {
                throw Invalid(
                    message:
                        "\(file): \(name) must be an http(s) URL or a path under forgerock_url such as /oauth2/realms/alpha/access_token, got \(value)"
                )
            } else if reader == .iOS, !value.hasPrefix("/") {
                throw Invalid(
                    message:
                        "\(file): \(name) must start with / (the iOS SDK appends it to forgerock_url as written), got \(value)"
                )
            }
            found[endpoint] = value
        }
        return found
    }
}
