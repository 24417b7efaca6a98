import AuthBridgeCore
import NativeSDK

/// A production app's `AuthenticationTokenModule` and `HydraTokenExchangeModule` (docs/token-sync.md), which
/// sit beside the FRAuth bridge: `tokenSyncReady()`, `tokenUpdate(map)` and
/// `exchangeToken(subjectToken)`. `logout()` is shared with the FRAuth bridge.
public final class TokenSyncModule: NativeModule {
    public let name = "AuthenticationTokenModule"
    public var events: [String] { TokenSync.events }
    private let sdk: AuthSDK
    private let sync: TokenSync
    private let clock: Clock

    /// The keys of the token map `tokenUpdate` takes.
    static let tokenKeys = ["accessToken", "refreshToken", "expiresAt", "idToken", "tokenType", "scope"]
    /// Accepted and ignored, so JS can push back a TOKEN_EVENT's params as they came.
    static let ignoredKeys = ["generation", "reason"]

    public init(sdk: AuthSDK, sync: TokenSync, clock: Clock) {
        self.sdk = sdk
        self.sync = sync
        self.clock = clock
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("tokenSyncReady") { args throws(BridgeError) in try self.tokenSyncReady(args) },
            NativeMethod("tokenUpdate") { args throws(BridgeError) in try self.tokenUpdate(args) },
            NativeMethod("exchangeToken") { args throws(BridgeError) in try self.exchangeToken(args) },
        ]
    }

    func tokenSyncReady(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.none("tokenSyncReady", args)
        sync.markReady()
        return .null
    }

    /// Stores JS's tokens when they differ from native's; never answered with an event.
    func tokenUpdate(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("tokenUpdate", args, ["the token map"])
        let token = try Self.token(from: args[0], now: clock.now)
        _ = sdk.tokens.adopt(token)
        return .null
    }

    /// RFC 8693 at the identity server; the new tokens become native's (TOKEN_EVENT, reason
    /// `exchange`) and are resolved to JS as a token map.
    func exchangeToken(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let subject = try Arguments.string("exchangeToken", args, name: "the subject token")
        guard !subject.isEmpty else { throw .invalidParams(reason: "the subject token must not be empty", param: "0") }
        do {
            let token = try sdk.exchangeToken(subject)
            var map = token.syncFields
            map["generation"] = .int(sdk.tokens.generation)
            return .object(map)
        } catch {
            let detail: String? = if case .oauth(let code, _) = error { code } else { nil }
            throw .reject("error", "Token exchange failed: \(error.message)", detail: detail)
        }
    }

    /// Reads a token map, naming the first key that is wrong.
    static func token(from value: JSONValue, now: Double) throws(BridgeError) -> AccessToken {
        guard case .object(let map) = value else {
            throw .invalidParams(reason: "the token map must be an object, got \(value.typeName)", param: "0")
        }
        let known = Set(tokenKeys + ignoredKeys)
        if let unknown = map.keys.first(where: { !known.contains($0) }) {
            throw bad(unknown, "is not a token map key (expected \(tokenKeys.joined(separator: ", ")))")
        }
        func string(_ key: String, required: Bool) throws(BridgeError) -> String? {
            switch map[key] {
            case nil, .null?:
                if required { throw bad(key, "is missing (a non-empty string)") }
                return nil
            case .string(let s)?:
                if s.isEmpty { throw bad(key, "must not be empty") }
                return s
            case let other?: throw bad(key, "must be a string, got \(other.typeName)")
            }
        }
        let accessToken = try string("accessToken", required: true)!
        let refreshToken = try string("refreshToken", required: true)
        let idToken = try string("idToken", required: false)
        let tokenType = try string("tokenType", required: false) ?? "Bearer"
        let scope: String
        switch map["scope"] {
        case nil, .null?: scope = ""
        case .string(let s)?: scope = s
        case let other?: throw bad("scope", "must be a space-separated string, got \(other.typeName)")
        }
        guard let expiry = map["expiresAt"] else { throw bad("expiresAt", "is missing (Unix seconds)") }
        guard let seconds = expiry.doubleValue, TimeBounds.contains(seconds) else {
            throw bad(
                "expiresAt",
                "must be a number of Unix seconds, got \(expiry.doubleValue == nil ? expiry.typeName : "an out-of-range number")"
            )
        }
        return AccessToken(
            value: accessToken, refreshToken: refreshToken, idToken: idToken, tokenType: tokenType,
            expiresAt: Int64(seconds.rounded(.down)), scope: scope, now: now)
    }

    private static func bad(_ key: String, _ problem: String) -> BridgeError {
        .invalidParams(reason: "token map: \(key) \(problem)", param: "0.\(key)")
    }
}
