import AuthBridgeCore
import Host
import JSONRPC
import RPCFace
import TestSupport
import Testing

/// `emulator.answerWebAuthn` and `emulator.passkeys` over the stdio face: the phone answers a
/// registration step's metadata, then lists the passkey it made; a cancelled ceremony and bad
/// arguments answer as documented.
@Suite struct WebAuthnMethods {
    private final class Captured: MessageSink {
        var messages: [JSONValue] = []
        func send(_ body: [UInt8]) { messages.append(try! JSONParser.parse(body)) }
    }

    /// What a WebAuthn registration node sends in its MetadataCallback (the fields the phone reads).
    static let registration =
        #"{"_type":"WebAuthn","_action":"webauthn_registration","challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=","userId":"ZGVtbw","userName":"demo","_relyingPartyId":"","_pubKeyCredParams":[{"type":"public-key","alg":-7}],"_excludeCredentials":[]}"#

    @Test func thePhoneRegistersAPasskeyAndListsIt() throws {
        var configuration = HostConfiguration()
        configuration.seed = 3
        let face = RPCFace(host: try Host(configuration: configuration))
        let out = Captured()
        func request(_ line: String) -> JSONValue {
            face.server.handle(frame: Array(line.utf8), sink: out)
            return out.messages.last!
        }
        let answer = request(
            Requests.call(1, "emulator.answerWebAuthn", #"{"username":"demo","data":\#(Self.registration)}"#))
        let value = try #require(answer["result"]?["value"]?.stringValue)
        let fields = value.split(separator: "::", omittingEmptySubsequences: false)
        #expect(fields.count == 3)
        #expect(fields.first?.contains(#""type":"webauthn.create""#) == true)
        #expect(fields.first?.contains(#""origin":"https://localhost""#) == true)
        let listed = request(Requests.call(2, "emulator.passkeys", #"{"username":"demo"}"#))
        #expect(listed["result"]?["phone"] == "demo")
        #expect(listed["result"]?["passkeys"]?.arrayValue?.first?["id"] == .string(String(fields[2])))
        #expect(listed["result"]?["passkeys"]?.arrayValue?.first?["rpId"] == "localhost")
        #expect(listed["result"]?["passkeys"]?.arrayValue?.first?["privateKey"] == nil)
        let cancelled = request(
            Requests.call(
                3, "emulator.answerWebAuthn", #"{"username":"demo","cancel":true,"data":\#(Self.registration)}"#))
        #expect(cancelled["result"]?["value"]?.stringValue?.hasPrefix("ERROR::NotAllowedError:") == true)
        let bad = request(Requests.call(4, "emulator.answerWebAuthn", #"{"username":"demo","data":{"_type":"Other"}}"#))
        #expect(bad["error"]?["code"] == -32602 && bad["error"]?["data"]?["param"] == "data")
        let missing = request(Requests.call(5, "emulator.answerWebAuthn", #"{"username":"demo"}"#))
        #expect(missing["error"]?["data"]?["param"] == "data")
    }
}
