import AuthBridgeCore
import IdentityServer

extension AM {
    /// AM's Success: the user in shared state gets an SSO session (none with `noSession=true`),
    /// and the failure counts this journey keeps on them are reset. The session records this journey
    /// and, when the journey ran with a session of the same user (a session upgrade), the journeys
    /// that session had satisfied.
    /// Exports reach it by AM's static id; AuthBridge's JSON names it `success`.
    struct SuccessNode: JourneyNode {
        static let type = NodeType(
            name: "SuccessNode",
            journeyFile: JourneyFileSyntax(name: "success") { (_: inout Settings) throws(SettingsError) in
                [SuccessNode()]
            })

        var outcomes: [String] { [] }

        func process(_ context: inout NodeContext) -> NodeAction {
            let username = context.username
            // An agent the journey authenticated is its identity, though the directory holds users only.
            guard let user = AgentDataStoreDecisionNode.principal(context) ?? context.users.find(username: username)
            else {
                return .reply(
                    ServerReply(
                        status: 401,
                        body: AMErrors.loginFailure(message: context.failureMessage, detail: context.failureDetail)))
            }
            if let lock = user.lock, lock.holds(at: context.clock.now) {
                return .reply(ServerReply(status: 401, body: AMErrors.userLockedOut))
            }
            // AM resets failure counts once the user gets through a journey that counts them.
            let journey = context.journeyName
            context.users.update(username: username) { user in
                user.counters = user.counters.filter { !FailureCounters.resetBySuccess($0.key, journey: journey) }
            }
            let config = context.config
            // AM's Success URL node sets it in shared state; otherwise the realm's end-user page.
            let successUrl = context.shared[SetSuccessUrlNode.key]?.stringValue ?? config.defaultSuccessUrl
            if context.noSession {
                return .reply(
                    ServerReply(
                        status: 200, body: ["successUrl": .string(successUrl), "realm": .string(config.realmPath)]))
            }
            let existing = context.ssoToken.flatMap { context.sessions.find($0) }
            let upgraded = existing?.userId == user.id ? existing?.journeys ?? [] : []
            let sso = context.sessions.create(for: user, journeys: [journey] + upgraded)
            return .reply(
                ServerReply(
                    status: 200,
                    body: [
                        "tokenId": .string(sso.tokenId), "successUrl": .string(successUrl),
                        "realm": .string(config.realmPath),
                    ],
                    headers: ["Set-Cookie": "\(config.cookieName)=\(sso.tokenId); Path=/; HttpOnly"]))
        }
    }
}
