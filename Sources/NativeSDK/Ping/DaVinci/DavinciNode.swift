import AuthBridgeCore
import IdentityServer

/// A node of a DaVinci flow (ping-ios `Orchestrate` nodes, the DaVinci module's `Connector`).
public enum DavinciNode: Equatable, Sendable {
    case next(DavinciContinueNode)
    /// The flow ended with an authorization code (`authorizeResponse.code`, the session's value).
    case success(input: JSONValue, code: String)
    /// PingOne refused the request (4xx): its `message` and body.
    case error(status: Int, message: String, input: JSONValue)
    /// Anything else: what the SDK's `ApiError`/`ApiException` holds (the status when there was
    /// an answer, and its body as text) or the cause's message.
    case failure(Failure)

    public struct Failure: Equatable, Sendable {
        /// The HTTP status when the failure is an answer (`ApiError.error(status, …)`), else nil.
        public var status: Int?
        /// The answer's body as text (Android's `ApiException` message), or the cause's message.
        public var content: String
    }

    /// An answer as a node (ping-ios `Davinci/Davinci/module/Transform.swift`, ping-android
    /// `davinci/…/module/Transform.kt`): a 4xx is an ErrorNode unless it is PingOne's timeout or
    /// the authentication connector's session or redirect capability failing; a 200 is a failure
    /// with `status: FAILED` or an `error`, a success with `authorizeResponse`, else a form; a 3xx
    /// and anything else are failures.
    static func from(_ reply: ServerReply, platform: Platform, previous: DavinciContinueNode?) -> DavinciNode {
        let body = reply.body
        let failure = DavinciNode.failure(Failure(status: reply.status, content: JSONWriter.compact(body)))
        switch reply.status {
        case 400..<500:
            if body["code"]?.intValue == 1999 || body["code"]?.stringValue == "requestTimedOut" { return failure }
            if body["connectorId"]?.stringValue == "pingOneAuthenticationConnector",
                let capability = body["capabilityName"]?.stringValue,
                capability == "returnSuccessResponseRedirect" || capability == "setSession"
            {
                return failure
            }
            return .error(status: reply.status, message: body["message"]?.stringValue ?? "", input: body)
        case 200:
            guard case .object = body else { return failure }
            if body["status"]?.stringValue == "FAILED" { return failure }
            if case .object(let error)? = body["error"], error.count > 0 { return failure }
            if case .object(let authorize)? = body["authorizeResponse"] {
                return .success(input: body, code: authorize["code"]?.stringValue ?? "")
            }
            // Android re-renders the last form when the flow rewinds to it.
            if platform == .android,
                let event = body["eventName"]?.stringValue,
                event == "rewindStateToLastRenderedUI" || event == "rewindStateToSpecificRenderedUI"
            {
                guard let previous else {
                    return .failure(Failure(status: nil, content: "Rewind state to last rendered UI failed."))
                }
                return .next(previous)
            }
            return .next(DavinciContinueNode(input: body, platform: platform))
        case 300..<400:
            return .failure(Failure(status: reply.status, content: "Location: \(reply.headers["Location"] ?? "")"))
        default:
            return failure
        }
    }
}

/// A form of the flow waiting for the app (`Connector`): the answer as received and its
/// collectors, with the values the app set.
public struct DavinciContinueNode: Equatable, Sendable {
    public let input: JSONValue
    public var collectors: [DavinciCollector]

    init(input: JSONValue, platform: Platform) {
        self.input = input
        var collectors = (input["form"]?["components"]?["fields"]?.arrayValue ?? []).compactMap {
            DavinciCollector(field: $0, platform: platform)
        }
        if case .object(let initial)? = input["formData"]?["value"] {
            for i in collectors.indices {
                if let value = initial[collectors[i].key] { collectors[i].initialize(with: value) }
            }
        }
        self.collectors = collectors
    }

    /// `ContinueNode.id`/`name`/`description`/`category`: the answer's `id` and its form's texts, "" when absent.
    public var id: String { input["id"]?.stringValue ?? "" }
    public var name: String { input["form"]?["name"]?.stringValue ?? "" }
    public var description: String { input["form"]?["description"]?.stringValue ?? "" }
    public var category: String { input["form"]?["category"]?.stringValue ?? "" }

    /// The URL the continue request goes to (`_links.next.href`).
    var nextHref: String { input["_links"]?["next"]?["href"]?.stringValue ?? "" }

    /// The continue request's body (`Connector.asJson()`).
    var requestBody: JSONValue {
        [
            "id": .string(id), "eventName": .string(input["eventName"]?.stringValue ?? "continue"),
            "parameters": collectors.parameters,
        ]
    }

    /// `close()`: what the node's collectors forget once it is left.
    mutating func close() {
        for i in collectors.indices { collectors[i].close() }
    }
}
