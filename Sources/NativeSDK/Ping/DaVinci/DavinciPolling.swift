import AuthBridgeCore
import IdentityServer

/// One tick of a `PollingCollector`'s poll (ping-android `davinci/…/collector/PollingCollector.kt`
/// `PollingStatus`, ping-ios `PollingCollector.poll()`).
public enum DavinciPollingStatus: Equatable, Sendable {
    case `continue`(retryCount: Int, maxRetries: Int)
    case complete(String)
    case timedOut
    case expired
    case error(String)

    /// What the collector's value becomes with this tick, so the next request reports it.
    var collectorValue: String {
        switch self {
        case .continue: return "continue"
        case .complete(let status): return status
        case .timedOut: return "timedOut"
        case .expired: return "expired"
        case .error: return "error"
        }
    }
}

extension PingDavinciClient {
    /// `pollStatus()` of the form's polling collector at `index`, run to its end (the waits
    /// between requests are the app's to spend; the emulator does not sleep). With
    /// `pollChallengeStatus` and a `challenge`, the challenge's status endpoint under the flow's
    /// `_links.self` is asked until it is complete, expired, failing, or `pollRetries` is spent;
    /// otherwise one interval passes and the flow is told to continue, until the retries run out.
    public func poll(_ node: inout DavinciContinueNode, collector index: Int) -> [DavinciPollingStatus] {
        let field = node.collectors[index].field
        let retries = Int(field["pollRetries"]?.intValue ?? 60)
        let interval = field["pollInterval"]?.intValue ?? 2000
        var ticks: [DavinciPollingStatus] = []
        let challenge = field["challenge"]?.stringValue ?? ""
        if field["pollChallengeStatus"]?.boolValue == true, !challenge.isEmpty {
            ticks = pollChallenge(node.input, challenge: challenge, maxRetries: retries)
        } else if interval > 0 {
            node.collectors[index].pollsLeft -= 1
            ticks = [node.collectors[index].pollsLeft <= 0 ? .timedOut : .complete("continue")]
        } else {
            ticks = [.error("Invalid pollInterval: \(interval)")]
        }
        if let last = ticks.last { node.collectors[index].value = .string(last.collectorValue) }
        return ticks
    }

    private func pollChallenge(_ input: JSONValue, challenge: String, maxRetries: Int) -> [DavinciPollingStatus] {
        guard let selfHref = input["_links"]?["self"]?["href"]?.stringValue,
            let interactionId = input["interactionId"]?.stringValue
        else { return [.error("Missing selfHref or interactionId")] }
        let base = selfHref.split(separator: "/davinci/connections", maxSplits: 1).first.map(String.init) ?? selfHref
        let url = "\(base)/davinci/user/credentials/challenge/\(challenge)/status"
        var ticks: [DavinciPollingStatus] = []
        for retry in 0..<max(maxRetries, 0) {
            let reply: ServerReply
            do {
                reply = try request("POST", url, headers: ["interactionId": interactionId])
            } catch {
                return ticks + [.error(error.message)]
            }
            guard reply.status == 200 else {
                if reply.body["serviceName"]?.stringValue == "challengeExpired" { return ticks + [.expired] }
                return ticks + [.error("Server error: \(reply.status), \(JSONWriter.compact(reply.body))")]
            }
            if reply.body["isChallengeComplete"]?.boolValue == true {
                return ticks + [.complete(reply.body["status"]?.stringValue ?? "")]
            }
            ticks.append(.continue(retryCount: retry + 1, maxRetries: maxRetries))
        }
        return ticks + [.timedOut]
    }
}
