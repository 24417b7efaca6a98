import AuthBridgeCore
import EmbeddedAM
import EmulatedDevice
import Host
import IdentityServer
import TestSupport
import Testing

/// Frodo's public e2e export `push_registration` (rockcarver/frodo-cli
/// test/e2e/exports/all-separate/classic/realm/root/journey/push_registration.journey.json,
/// re-typed in docs/examples/am-exports/mfa/) run end to end with the emulated phone: the
/// phone scans the QR code and answers through AM's push endpoint, the server's push sender
/// delivers the notification to the phone, the phone approves, denies or lets it expire.
@Suite struct PushPhoneTests {
    static let fixture: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/docs/examples/am-exports/mfa/push_registration.journey.json"
    }()

    static func host() throws -> Host {
        var configuration = HostConfiguration()
        configuration.seed = 7
        configuration.clock = .virtual(epoch: 1_767_225_600)
        configuration.journeyFiles = [fixture]
        return try Host(configuration: configuration)
    }

    static func callbacks(_ step: JSONValue) -> [String] {
        step["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
    }

    static func fill(_ step: JSONValue, _ values: [Int: JSONValue]) -> JSONValue {
        guard case .object(var object) = step, case .array(var list)? = object["callbacks"] else { return step }
        for (index, value) in values {
            guard case .object(var callback) = list[index], case .array(var inputs)? = callback["input"],
                case .object(var input) = inputs[0]
            else { continue }
            input["value"] = value
            inputs[0] = .object(input)
            callback["input"] = .array(inputs)
            list[index] = .object(callback)
        }
        object["callbacks"] = .array(list)
        return .object(object)
    }

    /// Signs demo in on the page and returns the step after it.
    static func signIn(_ host: Host) throws -> JSONValue {
        try host.perform { world in
            let page = (try? world.server.authenticate(.start(service: "push_registration")))?.body ?? .null
            return (try? world.server.authenticate(.submit(fill(page, [0: "demo", 1: "Ch4ng3it!"]))))?.body ?? .null
        }.get()
    }

    static func submit(_ host: Host, _ step: JSONValue, _ values: [Int: JSONValue] = [:]) throws -> ServerReply {
        try host.perform { world in
            (try? world.server.authenticate(.submit(fill(step, values)))) ?? ServerReply(status: 599)
        }.get()
    }

    /// Registration: the QR code scanned by demo's phone, then the next poll.
    static func registered(_ host: Host) throws -> JSONValue {
        let qr = try signIn(host)
        #expect(
            callbacks(qr) == ["TextOutputCallback", "TextOutputCallback", "HiddenValueCallback", "PollingWaitCallback"])
        let uri = try #require(qr["callbacks"]?.arrayValue?[2]["output"]?.arrayValue?.first?["value"]?.stringValue)
        let mechanism = try host.perform { world in
            Result { () throws(EmulatorError) in
                try world.scanPush(phone: world.phoneId(username: "demo", phone: nil), uri: uri)
            }
        }.get().get()
        #expect(mechanism.issuer == "ForgeRock" && mechanism.accountName == "demo")
        return try submit(host, qr).body
    }

    @Test func registerThenApproveSignsIn() throws {
        let host = try Self.host()
        let wait = try Self.registered(host)
        #expect(Self.callbacks(wait) == ["PollingWaitCallback", "ConfirmationCallback"])
        let device = try #require(
            try host.perform { $0.embedded.users.find(username: "demo")?.devices.push.first }.get())
        let phone = try #require(try host.perform { $0.phones.phone(id: "demo") }.get())
        #expect(device.deviceId == phone.deviceToken)
        #expect(device.mechanismUid == phone.push.first?.id)
        let pending = try host.perform { $0.pushNotifications(phone: "demo") }.get()
        #expect(pending.count == 1 && pending[0].message == "Login attempt from demo at ForgeRock")
        _ = try host.perform { world in
            Result { () throws(EmulatorError) in
                try world.answerPush(phone: "demo", messageId: nil, approve: true, number: nil)
            }
        }.get().get()
        #expect(try host.perform { $0.pushNotifications(phone: "demo") }.get().isEmpty, "answered: gone")
        _ = try host.perform { try? $0.advanceClock(by: 6) }.get()
        #expect(try Self.submit(host, wait).body["tokenId"] != nil)
    }

    @Test func denyAndExpireFail() throws {
        for deny in [true, false] {
            let host = try Self.host()
            let wait = try Self.registered(host)
            _ = try host.perform { world in
                Result { () throws(EmulatorError) in
                    deny
                        ? try world.answerPush(phone: "demo", messageId: nil, approve: false, number: nil)
                        : try world.expirePush(phone: "demo", messageId: nil)
                }
            }.get().get()
            _ = try host.perform { try? $0.advanceClock(by: 6) }.get()
            // Denied: FALSE. Unanswered: the export wires WAITING to its failure too.
            #expect(try Self.submit(host, wait).status == 401)
        }
    }

    @Test func aSecondPhoneGetsNoNotificationAndAScanOfGarbageStoresNothing() throws {
        let host = try Self.host()
        _ = try Self.registered(host)
        let clone = try host.perform { $0.clonePhone(id: "demo") }.get()
        #expect(clone.push.count == 1, "a restored backup holds the registration")
        #expect(try host.perform { $0.pushNotifications(phone: clone.id) }.get().isEmpty, "its push token is its own")
        let refused = try host.perform { world in
            Result { () throws(EmulatorError) in try world.scanPush(phone: "demo", uri: "pushauth://push/x:y?m=1") }
        }.get()
        guard case .failure(let error) = refused else {
            Issue.record("a URI without a secret was scanned")
            return
        }
        #expect(error.param == "uri")
        #expect(try host.perform { $0.phones.phone(id: "demo")?.push.count }.get() == 1)
    }
}
