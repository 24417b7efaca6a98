import AuthBridgeCore
import Host
import JSONRPC
import RPCFace
import TestSupport
import Testing

/// The push emulator methods over the stdio face: their refusals name the argument at fault.
@Suite struct PushMethods {
    private final class Captured: MessageSink {
        var messages: [JSONValue] = []
        func send(_ body: [UInt8]) { messages.append((try? JSONParser.parse(body)) ?? .null) }
    }

    @Test func refusalsNameTheirArgument() throws {
        var configuration = HostConfiguration()
        configuration.seed = 3
        let face = RPCFace(host: try Host(configuration: configuration))
        let out = Captured()
        func error(_ line: String) -> (Int64?, String?) {
            face.server.handle(frame: Array(line.utf8), sink: out)
            let error = out.messages.last?["error"]
            return (error?["code"]?.intValue, error?["data"]?["param"]?.stringValue)
        }
        #expect(
            error(Requests.call(1, "emulator.scanPush", #"{"username":"demo","uri":"otpauth://x"}"#)) == (-32602, "uri")
        )
        #expect(
            error(Requests.call(2, "emulator.scanPush", #"{"username":"demo","uri":"pushauth://push/a:b?m=1"}"#))
                == (-32602, "uri"))
        #expect(error(Requests.call(3, "emulator.approvePush", #"{"username":"demo"}"#)) == (-32602, "phone"))
        #expect(
            error(Requests.call(4, "emulator.denyPush", #"{"phone":"demo","messageId":"x"}"#)) == (-32602, "messageId"))
        #expect(
            error(Requests.call(5, "emulator.approvePush", #"{"username":"demo","number":1000}"#)) == (-32602, "number")
        )
        #expect(error(Requests.call(6, "emulator.expirePush", "{}")) == (-32602, "username"))
        face.server.handle(
            frame: Array(Requests.call(7, "emulator.pushNotifications", #"{"username":"demo"}"#).utf8), sink: out)
        #expect(out.messages.last?["result"] == ["phone": "demo", "notifications": []])
        face.server.handle(frame: Array(Requests.call(8, "emulator.lastPushNotification").utf8), sink: out)
        #expect(out.messages.last?["result"] == .null)
    }
}
