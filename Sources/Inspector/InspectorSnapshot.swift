import AuthBridgeCore
import EmbeddedAM
import EmulatedDevice
import Host

/// What the inspector page shows (`GET /inspector/state`, and each server-sent event): the world
/// read in one unit, nothing changed. Secrets are treated as the trace treats them: passwords and
/// password hashes never appear, tokens are cut to a prefix that tells two apart and cannot be
/// used; what a person at the page is meant to read and type (a one-time code, a resume link, an
/// OATH code) is shown, as the emulator's own methods show it. Times are the daemon's clock.
public enum InspectorSnapshot {
    public static func json(_ world: World) -> JSONValue {
        let now = world.clock.now
        var result: JSONObject = [
            "now": .double(now), "nowText": .string(ISO8601.formatMillis(now)),
            "virtualClock": .bool(world.clock is VirtualClock), "flavor": .string(world.configuration.flavor.rawValue),
            "users": .array(world.embedded.users.all.map { .object(user($0, now: now)) }),
            "sessions": .array(world.embedded.sessions.all.map { .object(session($0)) }),
            "native": native(world),
            "outbox": outbox(world.embedded.outbox),
            "lastFailure": world.embedded.lastFailure.map { .object($0.json) } ?? .null,
            "faults": .array(world.faults.map(\.json)),
        ]
        result["phones"] = .array(world.phones.all.map { .object(phone($0, now: now)) })
        result["journeys"] = .array(world.embedded.journeysInFlight.map { .object(journey($0, now: now)) })
        (result["grants"], result["grantsLeftOut"]) = grants(world, now: now)
        result["scriptedNodes"] = scriptedNodes(world)
        result["davinciSteps"] = davinciSteps(world)
        return .object(result)
    }

    /// A token as the page shows it: a prefix, enough to tell two apart, not enough to use.
    static func short(_ token: String) -> String { String(token.prefix(8)) + "…" }

    static func user(_ user: DirectoryUser, now: Double) -> JSONObject {
        var json: JSONObject = [
            "username": .string(user.username), "id": .string(user.id),
            "attributes": .object(visible(user.attributes)), "loginCount": .int(Int64(user.loginCount)),
            "locked": .bool(user.lock?.holds(at: now) ?? false),
            "devices": .array(
                DeviceKind.allCases.flatMap { kind in
                    user.devices.restJSON(kind).map { device -> JSONValue in
                        var device = visible(device)
                        device["kind"] = .string(kind.rawValue)
                        return .object(device)
                    }
                }),
        ]
        if let until = user.lock?.until { json["lockedUntil"] = .double(until) }
        return json
    }

    static func session(_ session: SSOSession) -> JSONObject {
        [
            "token": .string(short(session.tokenId)), "opsId": .string(session.opsId),
            "username": .string(session.username), "authTime": .double(session.authTime),
            "lastAccess": .double(session.lastAccess), "journeys": .array(session.journeys.map { .string($0) }),
        ]
    }

    static func journey(_ journey: EmbeddedAM.JourneyInFlight, now: Double) -> JSONObject {
        [
            "journey": .string(journey.journey), "tree": .string(journey.tree), "node": .string(journey.node),
            "stage": JSONValue(journey.stage), "callbacks": .array(journey.callbacks.map { .string($0) }),
            "username": JSONValue(journey.username), "deadline": .double(journey.deadline),
            "timesOutIn": .double(journey.deadline - now),
        ]
    }

    /// The native side's credentials and token-sync state, with the ID token's claims decoded
    /// (they are the app's to read; the signature is not checked here).
    static func native(_ view: NativeStateView) -> JSONValue {
        var tokens: JSONValue = .null
        if let token = view.tokens {
            var json: JSONObject = [
                "accessToken": .string(short(token.value)), "refreshToken": JSONValue(token.refreshToken.map(short)),
                "idToken": JSONValue(token.idToken.map(short)), "scope": .string(token.scope),
                "expiresAt": .double(token.expiresAt), "expiresIn": .double(token.expiresAt - view.now),
                "stale": .bool(view.stale),
            ]
            if let claims = token.idToken.flatMap(claims) { json["idTokenClaims"] = .object(claims) }
            tokens = .object(json)
        }
        return [
            "ready": .bool(view.ready), "generation": .int(view.generation),
            "pendingTokenRequest": JSONValue(view.pendingTokenRequest), "ssoSession": .bool(view.hasSSOSession),
            "tokens": tokens,
        ]
    }

    /// A JWT's payload, or nil when the token is not one.
    static func claims(_ jwt: String) -> JSONObject? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])),
            case .object(let claims)? = try? JSONParser.parse(bytes)
        else { return nil }
        return claims
    }

    static func outbox(_ outbox: Outbox) -> JSONValue {
        [
            "oneTimeCode": outbox.lastOneTimeCode?.json ?? .null,
            "resumeLink": outbox.lastSuspendLink?.json ?? .null,
        ]
    }

    /// A phone's OATH codes as its app shows them now (an HOTP code at the app's counter, not
    /// moved on: reading is not pressing the button) and its pending push notifications.
    static func phone(_ phone: Phone, now: Double) -> JSONObject {
        [
            "id": .string(phone.id), "owner": .string(phone.owner),
            "oath": .array(
                phone.oath.map { credential in
                    [
                        "id": .string(credential.id), "kind": .string(credential.kind.rawValue),
                        "code": .string(credential.code(at: now)),
                    ]
                }),
            "pushNotifications": .array(
                phone.notifications.filter { $0.isPending && $0.expiresAt > now }.map { .object($0.summaryJSON) }),
        ]
    }

    /// An object without the members whose names say they hold secrets (`password`,
    /// `…Token`, `…Secret`, knowledge-based answers), at any depth.
    static func visible(_ object: JSONObject) -> JSONObject {
        var result = JSONObject()
        for member in object.members {
            let (key, value) = (member.key, member.value)
            let name = key.lowercased()
            if secretNameParts.contains(where: name.contains) { continue }
            switch value {
            case .object(let inner): result[key] = .object(visible(inner))
            case .array(let list):
                result[key] = .array(
                    list.map { if case .object(let inner) = $0 { .object(visible(inner)) } else { $0 } })
            default: result[key] = value
            }
        }
        return result
    }

    static let secretNameParts = ["password", "secret", "token", "kba", "answer", "key"]
}
