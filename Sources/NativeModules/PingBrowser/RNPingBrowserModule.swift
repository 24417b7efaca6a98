import AuthBridgeCore
import NativeSDK

/// `RNPingBrowser` (`browser/src/NativeRNPingBrowser.ts`; native `browser/ios/RNPingBrowserCommon.swift`,
/// `browser/android/…/RNPingBrowserCommon.kt`): `configure(config)` and `reset()` are synchronous
/// and answer nothing (Android keeps Custom Tabs options, iOS resets its launcher: neither shows
/// here); `open(url, options)` launches the browser and resolves `{type: "success", url}` with
/// the URL the browser was sent back to the app with, or `{type: "cancel"}` when the user closed
/// it. The browser is emulated (`PingSDK.browse`): it signs in at AM's authorize page as
/// `RNPingOidc.authorize` does; a page the daemon cannot serve is one the user closes.
public final class RNPingBrowserModule: NativeModule {
    public let name = "RNPingBrowser"
    public let namespace = "RNPingBrowser"
    private let sdk: PingSDK
    private var platform: Platform { sdk.platform }

    public init(sdk: PingSDK) { self.sdk = sdk }

    public var methods: [NativeMethod] {
        [
            NativeMethod("configure") { args throws(BridgeError) in
                try Arguments.count("configure", args, ["config"])
                _ = try Arguments.object(args, 0, "config")
                return .null
            },
            NativeMethod("reset") { args throws(BridgeError) in
                try Arguments.none("reset", args)
                return .null
            },
            NativeMethod("open") { args throws(BridgeError) in try self.open(args) },
        ]
    }

    static let openError = "BROWSER_OPEN_ERROR"

    func open(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("open", args, ["url", "options"])
        let url = try Arguments.string(args, 0, "url")
        let options = try Arguments.object(args, 1, "options")
        // Both check the scheme first (Android `isNullOrBlank`, iOS `isEmpty`).
        let scheme = options["callbackUrlScheme"]?.stringValue ?? ""
        guard !(platform == .android ? scheme.allSatisfy(\.isWhitespace) : scheme.isEmpty) else {
            throw PingRejection.reject(Self.openError, .argument, "callbackUrlScheme is required")
        }
        if let problem = LaunchURL.problem(url, platform: platform) {
            throw PingRejection.reject(Self.openError, .argument, problem)
        }
        guard let landed = sdk.browse(url.trimmingSpaces) else { return ["type": "cancel"] }
        // iOS's session ends at the first URL of the callback scheme; Android's at the redirect
        // URI (`options.redirectUri`, else the launcher's, whose scheme is the app's).
        let redirect = options["redirectUri"]?.stringValue
        let caught =
            if platform == .android, let redirect, !redirect.isEmpty {
                landed.hasPrefix(redirect)
            } else {
                LaunchURL.scheme(landed)?.lowercased() == scheme.lowercased()
            }
        return caught ? ["type": "success", "url": .string(landed)] : ["type": "cancel"]
    }
}

/// The launch URL's checks: iOS needs an `http`/`https` scheme (`isSupportedHttpUrl`); Android
/// also needs a host and no user info (`parseLaunchUrl`).
enum LaunchURL {
    static func scheme(_ url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { return nil }
        return String(scheme)
    }

    static func problem(_ raw: String, platform: Platform) -> String? {
        let url = platform == .android ? raw.trimmingSpaces : raw
        guard let scheme = scheme(url)?.lowercased(), scheme == "http" || scheme == "https" else {
            return platform == .ios && url.isEmpty
                ? "Invalid URL" : "Unsupported URL scheme. Only HTTP and HTTPS URLs are supported."
        }
        guard platform == .android else { return nil }
        let rest = url.dropFirst(scheme.count + 1)
        guard rest.hasPrefix("//") else { return "Invalid URL. Provide an absolute HTTP(S) URL with a host." }
        let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.contains("@") { return "Unsupported URL format. User info is not allowed." }
        let host = authority.prefix { $0 != ":" }
        return host.isEmpty ? "Invalid URL. Provide an absolute HTTP(S) URL with a host." : nil
    }
}
