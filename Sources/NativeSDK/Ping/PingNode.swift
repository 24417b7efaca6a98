import AuthBridgeCore
import IdentityServer

/// A node of a Ping journey (ping-ios `Orchestrate/Node.swift`, ping-android `orchestrate/…/Node.kt`).
public enum PingNode: Equatable, Sendable {
    case next(PingContinueNode)
    /// AM refused the request (4xx): its `message` and error body; `status` is the HTTP status.
    case error(status: Int, message: String, input: JSONValue)
    /// Something went wrong on the way (transport, 5xx on iOS, an unexpected answer): the cause's text.
    case failure(message: String)
    /// AM's success body as is, `{tokenId, successUrl, realm}`.
    case success(input: JSONValue)

    /// A server answer as a node (ping-ios `Journey/Module/Transform.swift`, ping-android
    /// `journey/module/Transform.kt`): 200 with `authId` continues, 200 without succeeds, 4xx is an
    /// ErrorNode (Android: AM's timeout codes are failures), 5xx is a failure on iOS and an error on
    /// Android, anything else a failure.
    static func from(_ reply: ServerReply, platform: Platform, extensions: Set<CallbackType> = []) -> PingNode {
        let body = reply.body
        switch reply.status {
        case 200 where body["authId"] != nil:
            guard let node = PingContinueNode(step: body, platform: platform, extensions: extensions) else {
                return .failure(message: "Invalid step from the authenticate endpoint")
            }
            return .next(node)
        case 200: return .success(input: body)
        case 400..<500:
            if platform == .android, body["code"]?.intValue == 1999 || body["code"]?.stringValue == "requestTimedOut" {
                return .failure(message: body["message"]?.stringValue ?? "Request timed out")
            }
            return .error(status: reply.status, message: body["message"]?.stringValue ?? "", input: body)
        case 500..<600 where platform == .android:
            return .error(status: reply.status, message: body["message"]?.stringValue ?? "", input: body)
        default:
            return .failure(message: "Request failed with status \(reply.status)")
        }
    }
}

/// A node waiting for the app: AM's step and the callbacks the SDK registered. Unregistered
/// types are dropped from the node and from what is submitted. ping-ios also drops a plain
/// MetadataCallback: its registry keeps only the callbacks that are not a
/// `MetadataCallbackProtocol` once made (ping-ios `JourneyPlugin/CallbackRegistry.swift`
/// `callback(from:)`), and a WebAuthn metadata the
/// FIDO package specialized (`PingCallback.specialized`) has become a callback of its own type,
/// so it stays, as on a device with `PingFido` linked.
public struct PingContinueNode: Equatable, Sendable {
    /// AM's step JSON as received.
    public let step: JSONValue
    public var callbacks: [PingCallback]

    init?(step: JSONValue, platform: Platform, extensions: Set<CallbackType> = []) {
        guard case .string? = step["authId"], case .array(let raw)? = step["callbacks"] else { return nil }
        self.step = step
        callbacks = raw.enumerated().compactMap { index, json in
            guard let callback = PingCallback(raw: json, amIndex: index, extensions: extensions) else { return nil }
            if platform == .ios, callback.type == .metadata { return nil }
            return callback
        }
    }

    /// What `ContinueNode.next()` posts: AM's step with the kept callbacks, values set.
    var payload: JSONValue {
        guard case .object(var body) = step else { return step }
        body["callbacks"] = .array(callbacks.filter { !$0.isLeftOutOfSubmit }.map(\.submitted))
        return .object(body)
    }
}
