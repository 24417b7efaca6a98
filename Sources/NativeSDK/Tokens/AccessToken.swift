import AuthBridgeCore

/// The OAuth tokens the SDK holds for the current user, as FRAuth's `AccessToken`.
public struct AccessToken: Equatable, Sendable {
    public var value: String
    public var expiresIn: Int64
    public var scope: String
    public var tokenType: String
    public var refreshToken: String?
    public var idToken: String?
    /// When the token was received, in Unix seconds.
    public var authenticatedAt: Double
    /// The SSO token the access token was obtained with.
    public var sessionToken: String?

    /// Seconds between the Unix epoch and Apple's reference date (2001-01-01T00:00:00Z).
    public static let appleReferenceOffset: Double = 978_307_200

    public var expiresAt: Double { authenticatedAt + Double(expiresIn) }

    /// `willExpireIn(threshold)`: true once now is within `threshold` seconds of expiry.
    public func isStale(now: Double, threshold: Double) -> Bool { now > expiresAt - threshold }

    /// Counts as expired from `now` on (an administrator expired it at the server,
    /// `emulator.expireTokens`), so the next read refreshes it. Its expiry is put a second before
    /// now, so every check sees it past, the Ping SDK's without a refresh threshold too (a token
    /// received within that second is counted as received then). False when it had expired already.
    public mutating func expire(at now: Double) -> Bool {
        guard now < expiresAt else { return false }
        let elapsed = Int64((now - authenticatedAt).rounded(.down)) - 1
        if elapsed >= 0 {
            expiresIn = elapsed
        } else {
            authenticatedAt = now - 1
            expiresIn = 0
        }
        return true
    }

    /// Parses a token endpoint response (RFC 6749 §5.1; `ForgeRock/forgerock-ios-sdk` `FRAuth/FRAuth/OAuth2/AccessToken.swift`). A refresh response without a
    /// refresh token keeps the previous one, as the iOS SDK does.
    static func from(
        response body: JSONValue, receivedAt now: Double, previous: AccessToken?, sessionToken: String?
    ) -> AccessToken? {
        guard case .string(let value)? = body["access_token"], let expiresIn = body["expires_in"]?.intValue else {
            return nil
        }
        return AccessToken(
            value: value, expiresIn: expiresIn, scope: body["scope"]?.stringValue ?? "",
            tokenType: body["token_type"]?.stringValue ?? "Bearer",
            refreshToken: body["refresh_token"]?.stringValue ?? previous?.refreshToken,
            idToken: body["id_token"]?.stringValue ?? previous?.idToken, authenticatedAt: now,
            sessionToken: sessionToken)
    }

    /// `JSONEncoder().encode(token)` of FRAuth 4.6/4.8 (`ForgeRock/forgerock-ios-sdk` `FRAuth/FRAuth/OAuth2/{Token,AccessToken}.swift`): the `Token`
    /// superclass keys first, optionals as explicit null, the timestamp in Apple-epoch seconds.
    public var iosJSON: JSONValue {
        [
            "value": .string(value), "successUrl": "", "realm": "", "expiresIn": .int(expiresIn),
            "scope": .string(scope), "tokenType": .string(tokenType), "refreshToken": JSONValue(refreshToken),
            "idToken": JSONValue(idToken),
            "authenticatedTimestamp": .double(authenticatedAt - Self.appleReferenceOffset),
            "sessionToken": JSONValue(sessionToken),
        ]
    }
}

// MARK: the token-sync map and saved state

extension AccessToken {
    /// The map token sync exchanges with JS (protocol/README.md, "Token sync"): `expiresAt` in
    /// whole Unix seconds, absent values as null.
    public var syncFields: JSONObject {
        [
            "accessToken": .string(value), "refreshToken": JSONValue(refreshToken), "idToken": JSONValue(idToken),
            "tokenType": .string(tokenType), "expiresAt": .int(Int64(expiresAt.rounded(.down))),
            "scope": .string(scope),
        ]
    }

    /// A token set JS pushed: it expires at `expiresAt` and is counted as received now.
    public init(
        value: String, refreshToken: String?, idToken: String?, tokenType: String, expiresAt: Int64, scope: String,
        now: Double
    ) {
        let expiresIn = max(0, expiresAt - Int64(now.rounded(.down)))
        self.init(
            value: value, expiresIn: expiresIn, scope: scope, tokenType: tokenType, refreshToken: refreshToken,
            idToken: idToken, authenticatedAt: Double(expiresAt - expiresIn), sessionToken: nil)
    }

    var stateJSON: JSONValue {
        [
            "value": .string(value), "expiresIn": .int(expiresIn), "scope": .string(scope),
            "tokenType": .string(tokenType),
            "refreshToken": JSONValue(refreshToken), "idToken": JSONValue(idToken),
            "authenticatedAt": .double(authenticatedAt),
            "sessionToken": JSONValue(sessionToken),
        ]
    }

    init(state reader: StateReader) throws(StateError) {
        self.init(
            value: try reader.string("value"), expiresIn: try reader.seconds("expiresIn"),
            scope: try reader.string("scope"),
            tokenType: try reader.string("tokenType"), refreshToken: try reader.optionalString("refreshToken"),
            idToken: try reader.optionalString("idToken"), authenticatedAt: try reader.time("authenticatedAt"),
            sessionToken: try reader.optionalString("sessionToken"))
    }
}
