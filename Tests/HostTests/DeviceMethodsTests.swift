import AuthBridgeCore
import Host
import JSONRPC
import RPCFace
import TestSupport
import Testing

/// `emulator.devices`, `emulator.resetDevice`, `emulator.cloneDevice` over the stdio face:
/// request in, response out.
@Suite struct DeviceMethods {
    private final class Captured: MessageSink {
        var messages: [JSONValue] = []
        func send(_ body: [UInt8]) { messages.append(try! JSONParser.parse(body)) }
    }

    private static func session() throws -> (RPCFace, Captured) {
        var configuration = HostConfiguration()
        configuration.seed = 3
        return (RPCFace(host: try Host(configuration: configuration)), Captured())
    }

    @Test func aUserStartsWithNoPhoneAndNoDevicesAndACloneIsTheirSecondPhone() throws {
        let (face, out) = try Self.session()
        func request(_ line: String) -> JSONValue {
            face.server.handle(frame: Array(line.utf8), sink: out)
            return out.messages.last!
        }
        let listed = request(Requests.call(1, "emulator.devices", #"{"username":"demo"}"#))
        #expect(listed["result"]?["phones"] == [])
        #expect(listed["result"]?["registered"]?["oath"] == [])
        #expect(listed["result"]?["registered"]?["binding"] == [])
        let copy = request(Requests.call(2, "emulator.cloneDevice", #"{"username":"demo"}"#))
        #expect(copy["result"]?["id"] == "demo#2")
        let after = request(Requests.call(3, "emulator.devices", #"{"username":"demo"}"#))
        #expect(after["result"]?["phones"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["demo", "demo#2"])
        let wiped = request(Requests.call(4, "emulator.resetDevice", #"{"phone":"demo#2"}"#))
        #expect(wiped["result"]?["oath"] == [])
    }

    @Test func badArgumentsAreNamed() throws {
        let (face, out) = try Self.session()
        func error(_ line: String) -> (Int64?, String?) {
            face.server.handle(frame: Array(line.utf8), sink: out)
            let error = out.messages.last!["error"]
            return (error?["code"]?.intValue, error?["data"]?["param"]?.stringValue)
        }
        #expect(error(Requests.call(1, "emulator.devices", #"{"username":"nobody"}"#)) == (-32602, "username"))
        #expect(error(Requests.call(2, "emulator.resetDevice", #"{"phone":"demo#9"}"#)) == (-32602, "phone"))
        #expect(error(Requests.call(3, "emulator.cloneDevice", "{}")) == (-32602, "username"))
    }
}
