import AuthBridgeCore
import Host
import JSONRPC
import RPCFace
import TestSupport
import Testing

/// `emulator.scanOath` and `emulator.oathCode` over the stdio face: request in, response out.
@Suite struct OathMethods {
    private final class Captured: MessageSink {
        var messages: [JSONValue] = []
        func send(_ body: [UInt8]) { messages.append((try? JSONParser.parse(body)) ?? .null) }
    }

    /// The RFC 6238 seed, on a virtual clock at 2026-01-01T00:00:00Z.
    static let uri = "otpauth://totp/ForgeRock:demo?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&period=30&digits=8"

    private static func session() throws -> (RPCFace, Captured) {
        var configuration = HostConfiguration()
        configuration.seed = 3
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        return (RPCFace(host: try Host(configuration: configuration)), Captured())
    }

    @Test func thePhoneScansAURIAndShowsTheCodeOfTheClocksStep() throws {
        let (face, out) = try Self.session()
        func request(_ line: String) -> JSONValue {
            face.server.handle(frame: Array(line.utf8), sink: out)
            return out.messages.last ?? .null
        }
        let scanned = request(Requests.call(1, "emulator.scanOath", #"{"username":"demo","uri":"\#(Self.uri)"}"#))
        #expect(scanned["result"]?["id"] == "ForgeRock:demo")
        #expect(scanned["result"]?["digits"] == 8)
        #expect(scanned["result"]?["secret"] == nil)
        let code = request(Requests.call(2, "emulator.oathCode", #"{"username":"demo"}"#))
        let expected = OATH.totp(
            secret: Array("12345678901234567890".utf8), unixSeconds: Int64(VirtualClock.defaultEpoch), period: 30,
            digits: .eight)
        #expect(code["result"]?["code"] == .string(expected))
        let listed = request(Requests.call(3, "emulator.devices", #"{"username":"demo"}"#))
        #expect(listed["result"]?["phones"]?.arrayValue?.first?["oath"]?.arrayValue?.first?["type"] == "totp")
    }

    @Test func badArgumentsAreNamed() throws {
        let (face, out) = try Self.session()
        func error(_ line: String) -> (Int64?, String?) {
            face.server.handle(frame: Array(line.utf8), sink: out)
            let error = out.messages.last?["error"]
            return (error?["code"]?.intValue, error?["data"]?["param"]?.stringValue)
        }
        #expect(error(Requests.call(1, "emulator.oathCode", #"{"username":"demo"}"#)) == (-32602, "id"))
        #expect(
            error(Requests.call(2, "emulator.scanOath", #"{"username":"demo","uri":"otpauth://totp/x"}"#))
                == (-32602, "uri"))
        #expect(error(Requests.call(3, "emulator.scanOath", #"{"username":"demo"}"#)).0 == -32602)
        #expect(
            error(Requests.call(4, "emulator.oathCode", #"{"username":"demo","id":"Nope:demo"}"#)) == (-32602, "id"))
    }
}
