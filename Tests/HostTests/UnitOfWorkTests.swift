import AuthBridgeCore
import HTTPFace
import HTTPServer
import Host
import JSONRPC
import RPCFace
import TestSupport
import Testing

import class Foundation.FileManager
import struct Foundation.UUID

/// `Host.perform` is the only way a unit of work becomes durable: when the state cannot be
/// saved, the world is rolled back to what the disk holds and every face answers the error.
/// Here the state directory is replaced under the running Host, so its next save is refused.
@Suite struct AChangeThatCannotBeSaved {
    private final class Captured: MessageSink {
        var messages: [JSONValue] = []
        func send(_ body: [UInt8]) { messages.append(try! JSONParser.parse(body)) }
    }

    private static func host() throws -> (Host, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)").path
        var configuration = HostConfiguration()
        configuration.seed = 3
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.stateDirectory = directory
        return (try Host(configuration: configuration), directory)
    }

    /// Moves the directory the Host writes aside and puts a new one in its place: the Host's
    /// next save finds the directory no longer its own; what it rolls back to stays readable.
    private static func replace(_ directory: String) throws {
        try FileManager.default.moveItem(atPath: directory, toPath: directory + ".moved")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    }

    private static func remove(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.removeItem(atPath: directory + ".moved")
    }

    @Test func overStdioTheRequestAnswersMinus32001AndItsChangeIsUndone() throws {
        let (host, directory) = try Self.host()
        defer { Self.remove(directory) }
        let face = RPCFace(host: host)
        let out = Captured()
        func request(_ line: String) { face.server.handle(frame: Array(line.utf8), sink: out) }
        request(Requests.call(1, "emulator.addUser", #"{"username":"alice","password":"Passw0rd!"}"#))
        try Self.replace(directory)
        request(Requests.call(2, "emulator.addUser", #"{"username":"bob","password":"Passw0rd!"}"#))
        request(Requests.call(3, "emulator.state"))
        #expect(out.messages[0]["result"]?["username"] == "alice")
        #expect(out.messages[1]["error"]?["code"] == -32001)
        #expect(
            out.messages[1]["error"]?["message"]?.stringValue?.hasPrefix("State not saved: the change was undone")
                == true)
        #expect(out.messages[2]["result"]?["server"]?["users"] == 2, "the demo user and alice: bob was rolled back")
    }

    @Test func overHTTPTheRequestAnswers503AndItsChangeIsUndone() throws {
        let (host, directory) = try Self.host()
        defer { Self.remove(directory) }
        let token = try host.perform { world -> String? in
            let step = world.embedded.authenticate(.start(service: "Login")).body
            var payload = step.objectValue!
            payload["callbacks"] = try! JSONParser.parse(
                #"[{"type":"NameCallback","input":[{"name":"IDToken1","value":"demo"}]},{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"Ch4ng3it!"}]}]"#
            )
            return world.embedded.authenticate(.submit(.object(payload))).body["tokenId"]?.stringValue
        }.get()
        #expect(try host.perform { $0.nativeState.sessions }.get() == 1)
        try Self.replace(directory)
        let respond = HTTPFace.handler(host: host, corsOrigins: [])
        let logout = HTTPRequest(
            method: "POST", target: "/am/json/realms/root/realms/alpha/sessions?_action=logout",
            headers: [.init("iPlanetDirectoryPro", token ?? ""), .init("Accept-API-Version", "resource=3.1")])
        let response = respond(logout)
        #expect(response.status == 503)
        #expect(String(decoding: response.body, as: UTF8.self).contains("State not saved: the change was undone"))
        #expect(try host.perform { $0.nativeState.sessions }.get() == 1, "the logout was rolled back")
    }
}
