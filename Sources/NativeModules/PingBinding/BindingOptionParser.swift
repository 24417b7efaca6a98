import AuthBridgeCore
import EmulatedDevice
import NativeSDK

/// What `bindForJourney` / `signForJourney` read from their `options` and `config` objects
/// (`binding/ios/BindingOptionParser.swift`, `binding/android/…/BindingOptionParser.kt`), as
/// lenient as the native parsers: a value of the wrong type is as if absent, never an error.
struct BindingCall {
    /// Which DeviceBindingCallback / DeviceSigningVerifierCallback of the node (`index`, 0).
    var index = 0
    var deviceName: String?
    var options: BindingCeremony.Options
    /// `config.userKeyStorageId`, as given (resolved against RNPingStorage's registrations).
    var userKeyStorageId: String?

    /// The storage a platform's binding module keeps its `UserKey`s in when the app names none
    /// (ping-ios `UserKeyStorageConfig`'s keychain account, ping-android `UserKeyStorageConfig.kt`'s
    /// data store file and key alias): the slot `StorageRegistry.slot` gives a registration naming
    /// the same.
    static func defaultStorage(_ platform: Platform) -> String {
        let name = "com.pingidentity.device.binding.v1.userkeys"
        return platform == .ios ? "keychain:\(name)" : "datastore:\(name)/\(name)"
    }

    init(options: JSONObject, config: JSONObject, platform: Platform, signing: Bool) {
        self.options = BindingCeremony.Options(style: platform == .ios ? .pingIOS : .pingAndroid)
        index = Self.index(options["index"])
        deviceName = Self.trimmed(options["deviceName"])
        self.options.appCollectsPin = config["hasPinCollector"] == .bool(true)
        self.options.appSelectsKey = signing && config["hasUserKeySelector"] == .bool(true)
        userKeyStorageId = Self.trimmed(config["userKeyStorageId"])
        // Android alone reads `signingAlgorithm`; iOS always signs ES256.
        if platform == .android, let algorithm = Self.trimmed(options["signingAlgorithm"]) {
            switch algorithm {
            case "RS256": self.options.hash = .sha256
            case "RS512": self.options.hash = .sha512
            default: self.options.unsupportedAlgorithm = algorithm
            }
        }
        if case .object(let appPin)? = options["appPin"] {
            if let retry = appPin["maxAttempts"]?.doubleValue { self.options.pinRetry = Int(clamping: Int64(retry)) }
            if case .object(let prompt)? = appPin["prompt"] {
                self.options.pinTitle = prompt["title"]?.stringValue
                self.options.pinSubtitle = prompt["subtitle"]?.stringValue
                self.options.pinDescription = prompt["description"]?.stringValue
            }
        }
        if signing, case .object(let claims)? = options["claims"] {
            self.options.claims = platform == .ios ? claims : Self.androidClaims(claims)
        }
        if case .object(let jwt)? = options["jwt"] {
            self.options.issuedAt = Self.seconds(jwt["issueTimeEpochSeconds"])
            self.options.notBefore = Self.seconds(jwt["notBeforeTimeEpochSeconds"])
            self.options.expires = Self.seconds(jwt["expirationTimeEpochSeconds"])
        }
    }

    /// `parseCallbackIndex`: a number (truncated) or a numeric string; anything else is 0.
    private static func index(_ value: JSONValue?) -> Int {
        switch value {
        case .int(let number)?: return Int(clamping: number)
        case .double(let number)? where number.isFinite: return Int(clamping: Int64(number.rounded(.towardZero)))
        case .string(let text)?: return Int(text) ?? 0
        default: return 0
        }
    }

    /// A string trimmed of white space, nil when empty or not a string.
    static func trimmed(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        let trimmed = String(
            text.drop { $0.isWhitespace || $0.isNewline }.reversed().drop { $0.isWhitespace || $0.isNewline }
                .reversed())
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `jwt.*EpochSeconds`: a number, truncated to whole seconds.
    private static func seconds(_ value: JSONValue?) -> Int64? {
        guard let number = value?.doubleValue, number.isFinite, abs(number) < 1e15 else { return nil }
        return Int64(number.rounded(.towardZero))
    }

    /// Android's `parseClaims` keeps strings, numbers (as doubles) and booleans only.
    private static func androidClaims(_ claims: JSONObject) -> JSONObject {
        var kept: JSONObject = [:]
        for member in claims.members {
            switch member.value {
            case .string, .bool: kept[member.key] = member.value
            case .int(let number): kept[member.key] = .double(Double(number))
            case .double: kept[member.key] = member.value
            default: break
            }
        }
        return kept
    }
}
