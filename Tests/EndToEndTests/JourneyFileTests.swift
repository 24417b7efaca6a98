import Foundation
import TestSupport
import Testing

/// `--journeys FILE` as a user meets it: a good file adds journeys to `daemon.hello` and runs;
/// a bad one stops the start (status 1) with the file, the journey, the node and the reason.
@Suite struct JourneyFileTests {
    static func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "authbridge-journeys-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aUserJourneyRunsBesideTheBuiltIns() throws {
        let path = try Self.write(
            #"""
            {"name":"Hello","entry":"who","nodes":{
              "who":{"type":"page","stage":"Who","callbacks":[{"type":"NameCallback","prompt":"Name?"},{"type":"PasswordCallback"}],"outcomes":{"next":"check"}},
              "check":{"type":"dataStoreDecision","outcomes":{"true":"ok","false":"no"}},
              "ok":{"type":"success"},"no":{"type":"failure"}}}
            """#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let step =
            #"{\"callbacks\":[{\"input\":[{\"name\":\"IDToken1\",\"value\":\"demo\"}]},{\"input\":[{\"name\":\"IDToken2\",\"value\":\"Ch4ng3it!\"}]}]}"#
        let result = try DaemonProcess.run(
            ["--journeys", path, "--auth-service", "Hello"],
            lines: [
                Requests.call(1, "daemon.hello"), Requests.call(2, "start"), Requests.call(3, "login"),
                Requests.call(4, "next", "[\"\(step)\"]"),
            ])
        #expect(result.status == 0)
        #expect(result.messages[0]["result"]?["server"]?["journeys"]?.arrayValue?.contains("Hello") == true)
        #expect(result.messages[2]["result"]?.stringValue?.contains(#""stage":"Who""#) == true)
        #expect(result.messages[3]["result"]?["type"] == "LoginSuccess")
    }

    @Test func aBadFileStopsTheStartNamingFileNodeAndReason() throws {
        let path = try Self.write(
            #"{"name":"Broken","entry":"a","nodes":{"a":{"type":"page","callbacks":[{"type":"NameCallbak"}],"outcomes":{"next":"a"}}}}"#
        )
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try DaemonProcess.run(["--journeys", path], input: [])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains(
                "the journeys file \(path) is invalid: journey \"Broken\", node \"a\": callback 0: unsupported callback type \"NameCallbak\""
            ))
    }

    @Test func aMissingFileOrUnknownServiceStopsTheStart() throws {
        let missing = try DaemonProcess.run(["--journeys", "/nonexistent/journeys.json"], input: [])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains(
                "cannot read the journeys file /nonexistent/journeys.json: No such file or directory"))
        let unknown = try DaemonProcess.run(["--auth-service", "Nope"], input: [])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("--auth-service names no journey Nope"))
    }

    @Test func theDocumentedExampleFileLoadsAndRuns() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let example = root.appendingPathComponent("docs/examples/journeys.json").path
        let creds =
            #"{\"callbacks\":[{\"input\":[{\"name\":\"IDToken1\",\"value\":\"demo\"}]},{\"input\":[{\"name\":\"IDToken2\",\"value\":\"Ch4ng3it!\"}]}]}"#
        let sms = #"{\"callbacks\":[{\"input\":[{\"name\":\"IDToken1\",\"value\":1}]}]}"#
        let first = try DaemonProcess.run(
            ["--journeys", example, "--auth-service", "LoginWithMFA", "--seed", "3"],
            lines: [
                Requests.call(1, "start"), Requests.call(2, "login"), Requests.call(3, "next", "[\"\(creds)\"]"),
                Requests.call(4, "next", "[\"\(sms)\"]"), Requests.call(5, "emulator.lastOneTimeCode"),
            ])
        #expect(first.status == 0)
        #expect(first.messages[3]["result"]?.stringValue?.contains(#""stage":"OneTimePassword""#) == true)
        let code = first.messages[4]["result"]?["code"]?.stringValue ?? ""
        #expect(first.messages[4]["result"]?["delivery"] == "sms")
        // Same seed, same code: a second run can answer it.
        let answer = #"{\"callbacks\":[{\"input\":[{\"name\":\"IDToken1\",\"value\":\"\#(code)\"}]}]}"#
        let second = try DaemonProcess.run(
            ["--journeys", example, "--auth-service", "LoginWithMFA", "--seed", "3"],
            lines: [
                Requests.call(1, "start"), Requests.call(2, "login"), Requests.call(3, "next", "[\"\(creds)\"]"),
                Requests.call(4, "next", "[\"\(sms)\"]"), Requests.call(5, "next", "[\"\(answer)\"]"),
            ])
        #expect(second.messages[4]["result"]?["type"] == "LoginSuccess")
    }
}
