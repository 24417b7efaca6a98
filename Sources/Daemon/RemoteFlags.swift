import AuthBridgeCore
import IdentityServer
import RemoteConfig

/// `--config FILE` and `--server URL --realm R --client-id C --redirect-uri U --scope S
/// --discovery URL --timeout N --max-reply-bytes N --ca-file FILE --insecure`: a remote tenant's settings, flags overriding the file's values.
struct RemoteFlags {
    var values: [String: String] = [:]
    var insecure = false

    /// `--max-reply-bytes`' range: a journey step or discovery document needs a few KiB; past
    /// 1 GiB the limit no longer protects the machine.
    static let minReplyBytes = 1024
    static let maxReplyBytes = 1 << 30

    /// `--server` or `--config`: a remote tenant serves, which the other flags then describe.
    var isRequested: Bool { values["--config"] != nil || values["--server"] != nil }

    /// nil when no flag asks for a remote server: the embedded one serves.
    func settings() throws(Options.UsageError) -> RemoteServerSettings? {
        let given = values.keys.filter { $0 != "--config" }
        guard isRequested else {
            if let flag = given.sorted().first ?? (insecure ? "--insecure" : nil) {
                throw Options.UsageError(
                    message: "\(flag) applies to a remote tenant: give --server URL or --config FILE")
            }
            return nil
        }
        var settings: RemoteServerSettings
        if let path = values["--config"] {
            do {
                settings = try AppConfigFile.load(path: path)
            } catch {
                throw Options.UsageError(message: error.message)
            }
        } else {
            func required(_ flag: String) throws(Options.UsageError) -> String {
                guard let value = values[flag] else { throw Options.UsageError(message: "--server needs \(flag)") }
                return value
            }
            settings = RemoteServerSettings(
                url: "", realm: try required("--realm"), oauthClientId: try required("--client-id"),
                oauthRedirectUri: try required("--redirect-uri"))
        }
        if let url = values["--server"] {
            guard AppConfigFile.isHTTPURL(url) else {
                throw Options.UsageError(
                    message: "--server needs an http(s) URL such as https://tenant.example.com/am, got \(url)")
            }
            settings.url = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        if let realm = values["--realm"] { settings.realm = realm }
        if let client = values["--client-id"] { settings.oauthClientId = client }
        if let redirect = values["--redirect-uri"] { settings.oauthRedirectUri = redirect }
        if let scope = values["--scope"] { settings.oauthScope = scope }
        if let url = values["--discovery"] {
            guard AppConfigFile.isHTTPURL(url) else {
                throw Options.UsageError(
                    message: "--discovery needs the http(s) URL of a .well-known/openid-configuration, got \(url)")
            }
            settings.discoveryURL = url
        }
        if let text = values["--timeout"] {
            guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                throw Options.UsageError(message: "--timeout needs seconds between 0 and 600, got \(text)")
            }
            settings.timeout = seconds
        }
        if let text = values["--max-reply-bytes"] {
            // Digits only: Int("+2048") would also read.
            guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let bytes = Int(text),
                (Self.minReplyBytes...Self.maxReplyBytes).contains(bytes)
            else {
                throw Options.UsageError(
                    message:
                        "--max-reply-bytes needs a number of bytes between \(Self.minReplyBytes) and \(Self.maxReplyBytes), got \(text)"
                )
            }
            settings.maxReplyBytes = bytes
        }
        if let file = values["--ca-file"] {
            guard !insecure else {
                throw Options.UsageError(
                    message:
                        "--ca-file and --insecure contradict each other: --insecure verifies nothing, --ca-file verifies against FILE"
                )
            }
            guard case .success(let bytes) = FileBytes.read(path: file),
                String(decoding: bytes, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----")
            else {
                throw Options.UsageError(
                    message:
                        "--ca-file \(file) is not a readable file of PEM certificates (-----BEGIN CERTIFICATE-----)")
            }
            settings.caFile = file
        }
        settings.insecure = insecure
        return settings
    }
}
