import AuthBridgeCore
import NativeSDK

/// How the Ping modules reject (rn core `GenericError`, ios `core/ios/Errors/GenericError.swift`,
/// android `core/android/…/error/GenericError.kt`): RN's `reject(code, message, userInfo)` with
/// `userInfo = {type, error, message, code?, status?}`. The JS layer's `PingError.from` reads
/// `userInfo.type`; without it every error would read `unknown_error`.
enum PingRejection {
    /// `PingError` types the modules use.
    enum Kind: String {
        case argument = "argument_error", auth = "auth_error", exchange = "exchange_error", internalError = "internal_error"
        case network = "network_error", state = "state_error", unknown = "unknown_error"
    }

    static func reject(_ code: String, _ kind: Kind, _ message: String, status: Int? = nil) -> BridgeError {
        var userInfo: JSONObject = ["type": .string(kind.rawValue), "error": .string(code), "message": .string(message)]
        if let status { userInfo["status"] = .int(Int64(status)) }
        return .typedRejection(code: code, message: message, userInfo: .object(userInfo))
    }

    /// An OIDC failure of the SDK as a rejection with `code` (ios `JourneyErrorMapper.map`,
    /// android `OidcErrorMapper`): authorize → auth_error, API → exchange_error with the status,
    /// transport → network_error.
    static func sdk(_ error: PingSDKError, code: String) -> BridgeError {
        switch error {
        case .authorize(let message): return reject(code, .auth, message)
        case .api(let status, let message): return reject(code, .exchange, message, status: status)
        case .network(let message): return reject(code, .network, message)
        }
    }
}

/// Positional argument checks for the Ping modules: what the TurboModule spec declares, so a
/// wrong call is −32602 naming the argument, never a native rejection.
enum PingArguments {
    static func count(_ method: String, _ args: [JSONValue], _ names: [String], optional: Int = 0) throws(BridgeError) {
        let range = (names.count - optional)...names.count
        guard range.contains(args.count) else {
            let expected = optional == 0 ? "\(names.count)" : "\(range.lowerBound) to \(range.upperBound)"
            throw .invalidParams(
                reason: "\(method) takes \(expected) argument(s) (\(names.joined(separator: ", "))), got \(args.count)", param: nil)
        }
    }

    static func string(_ args: [JSONValue], _ position: Int, _ name: String) throws(BridgeError) -> String {
        guard case .string(let value) = args[position] else {
            throw .invalidParams(reason: "\(name) must be a string, got \(args[position].typeName)", param: String(position))
        }
        return value
    }

    static func object(_ args: [JSONValue], _ position: Int, _ name: String) throws(BridgeError) -> JSONObject {
        guard case .object(let value) = args[position] else {
            throw .invalidParams(reason: "\(name) must be an object, got \(args[position].typeName)", param: String(position))
        }
        return value
    }

    /// The id a synchronous create or register call answers: the one the host passed as an
    /// extra argument at `position` (a fresh, non-empty string), else a new registry id.
    static func chosenId(_ args: [JSONValue], position: Int, sdk: PingSDK, taken: (String) -> Bool) throws(BridgeError) -> String {
        guard args.count > position else { return sdk.newId() }
        let id = try string(args, position, "the host-chosen id")
        guard !id.isEmpty, !taken(id) else {
            throw .invalidParams(reason: "the host-chosen id must be a new, non-empty string, got \"\(id)\"", param: String(position))
        }
        return id
    }

    static func bool(_ args: [JSONValue], _ position: Int, _ name: String) throws(BridgeError) -> Bool {
        guard case .bool(let value) = args[position] else {
            throw .invalidParams(reason: "\(name) must be a boolean, got \(args[position].typeName)", param: String(position))
        }
        return value
    }
}
