import AuthBridgeCore
import EmbeddedAM
import Host
import NativeSDK

/// The parts of the snapshot about tokens and choices: the OAuth grants with the access tokens
/// they issued (header and claims decoded, never the token), the native side's token-sync
/// history with its flavor and bridge variant, and the scripted nodes a person may choose an
/// outcome for.
extension InspectorSnapshot {
    /// The page shows at most this many live grants, those used last: a load test leaves thousands,
    /// and each one's tokens would make every update of an open page megabytes.
    static let shownGrants = 50

    /// The live grants used last and every revoked one kept, with how many live ones are left out.
    static func grants(_ world: World, now: Double) -> (JSONValue, JSONValue) {
        let shown = world.embedded.grants(recent: shownGrants)
        return (.array(shown.views.map { .object(grant($0, world, now: now)) }), .int(Int64(shown.leftOut)))
    }

    static func grant(_ grant: EmbeddedAM.GrantView, _ world: World, now: Double) -> JSONObject {
        var json: JSONObject = [
            "id": .string(grant.id), "state": .string(grant.state.rawValue), "clientId": .string(grant.clientId),
            "username": JSONValue(world.embedded.users.find(id: grant.userId)?.username),
            "scopes": .array(grant.scopes.map { .string($0) }), "authTime": .double(grant.authTime),
            "issuer": JSONValue(grant.issuer), "refreshExpiresIn": .double(grant.refreshExpires - now),
            "accessTokens": .array(
                grant.accessTokens.map { token in
                    var json: JSONObject = [
                        "header": .object(token.header), "claims": .object(token.claims),
                        "expiresAt": .double(token.expires), "expiresIn": .double(token.expires - now),
                        "state": .string(token.state.rawValue),
                    ]
                    if let at = token.expiredAt { json["expiredAt"] = .double(at) }
                    return .object(json)
                }),
            "idTokenClaims": grant.idTokenClaims.map { .object($0) } ?? .null,
        ]
        if let at = grant.endedAt { json["endedAt"] = .double(at) }
        return json
    }

    /// The native side's state with what it is (flavor, bridge variant) and its last token-sync
    /// transitions, oldest first.
    static func native(_ world: World) -> JSONValue {
        guard case .object(var json) = native(world.nativeState) else { return .null }
        json["flavor"] = .string(world.configuration.flavor.rawValue)
        json["variant"] = .string(world.configuration.variant.rawValue)
        json["history"] = .array(
            world.sync.history.transitions.map { transition in
                [
                    "at": .double(transition.at), "kind": .string(transition.kind.rawValue),
                    "name": .string(transition.name), "reason": .string(transition.reason),
                    "generation": transition.generation.map { .int($0) } ?? .null,
                ]
            })
        return .object(json)
    }

    /// Each journey with scripted nodes: the one a journey in flight waits in first, then by name.
    static func scriptedNodes(_ world: World) -> JSONValue {
        let waiting = Set(world.embedded.journeysInFlight.flatMap { [$0.journey, $0.tree] })
        let journeys = world.embedded.scriptedNodes.sorted {
            (waiting.contains($0.journey) ? 0 : 1, $0.journey) < (waiting.contains($1.journey) ? 0 : 1, $1.journey)
        }
        return .array(
            journeys.map { journey in
                [
                    "journey": .string(journey.journey),
                    "nodes": .array(
                        journey.nodes.map { node in
                            [
                                "id": .string(node.id), "displayName": JSONValue(node.displayName),
                                "outcomes": .array(node.outcomes.map { .string($0) }),
                                "chosen": JSONValue(node.chosen),
                            ]
                        }),
                ]
            })
    }

    /// Each DaVinci flow with connector steps AuthBridge does not run, with their outcomes and the
    /// one chosen (`emulator.davinciFlows`' own list, so the page and the method agree).
    static func davinciSteps(_ world: World) -> JSONValue {
        .array(
            (world.davinciFlows["flows"]?.arrayValue ?? []).filter { $0["scenarioSteps"]?.arrayValue?.isEmpty == false }
        )
    }
}
