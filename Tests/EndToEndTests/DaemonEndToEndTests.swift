import AuthBridgeCore
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct DaemonEndToEnd {
    let deterministic = ["--seed", "7", "--clock", "virtual"]

    @Test func wholeLoginOverNDJSON() throws {
        let result = try DaemonProcess.run(
            deterministic,
            lines: Requests.login + [
                Requests.call(4, "getUserInfo"), Requests.call(5, "getAccessToken"), Requests.call(6, "logout"),
                Requests.call(7, "getUserInfo"),
            ])
        #expect(result.status == 0)
        let messages = result.messages
        #expect(messages.count == 7)
        #expect(messages[0]["result"] == "SDK initialized")
        #expect(messages[1]["result"]?.stringValue?.hasPrefix("{\"authId\":\"") == true)
        #expect(messages[2]["result"]?["type"] == "LoginSuccess")
        #expect(messages[3]["result"]?["email"] == "demo@example.com")
        #expect(messages[4]["result"]?.stringValue?.contains("\"tokenType\":\"Bearer\"") == true)
        #expect(messages[5]["result"] == .null)
        #expect(messages[6]["error"]?["code"] == -32000)
        #expect(messages[6]["error"]?["data"]?["code"] == "error")
        #expect(messages.map { $0["id"] } == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test func sameSeedAndClockGiveTheSameBytes() throws {
        let lines = Requests.login + [Requests.call(4, "getAccessToken")]
        let a = try DaemonProcess.run(deterministic, lines: lines)
        let b = try DaemonProcess.run(deterministic, lines: lines)
        #expect(a.stdout == b.stdout)
        #expect(!a.stdout.isEmpty)
        let c = try DaemonProcess.run(["--seed", "8", "--clock", "virtual"], lines: lines)
        #expect(c.stdout != a.stdout)
    }

    @Test func everyMalformedFrameIsAnsweredAndServingGoesOn() throws {
        var input: [UInt8] = []
        func line(_ text: String) { input += Array((text + "\n").utf8) }
        line(Requests.call(1, "start"))
        line(Requests.call(2, "login"))
        line("this is not json")  // -32700
        input += [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D, 0x0A]  // invalid UTF-8: -32700
        line("42")  // not an object: -32600
        line(#"{"id":3,"method":"start"}"#)  // missing jsonrpc: -32600
        line(#"{"jsonrpc":"1.0","id":4,"method":"start"}"#)  // wrong jsonrpc: -32600
        line(#"{"jsonrpc":"2.0","id":null,"method":"start"}"#)  // null id: -32600
        line(#"{"jsonrpc":"2.0","id":1.5,"method":"start"}"#)  // fractional id
        line(#"{"jsonrpc":"2.0","id":{"a":1},"method":"start"}"#)  // object id
        line(#"{"jsonrpc":"2.0","id":[1],"method":"start"}"#)  // array id
        line(Requests.call(5, "noSuchMethod"))  // -32601
        line(Requests.call(6, "next"))  // param count: -32602
        line(Requests.call(7, "next", "[5]"))  // param type: -32602
        line(Requests.call(8, "login", #"{"a":1}"#))  // named params to a bridge method
        line(Requests.call(9, "next", #"["not a step"]"#))  // native rejection
        line(Requests.call(10, "next", #"["5"]"#))
        line(Requests.call(11, "next", #"["{\"callbacks\":{}}"]"#))
        line(Requests.call(12, "next", #"["{\"callbacks\":[{}]}"]"#))
        line(Requests.call(13, "next", #"["{\"callbacks\":[{},{},{}]}"]"#))
        line(
            "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"start\",\"params\":[\"" + String(repeating: "x", count: 2000)
                + "\"]}")  // oversize
        line(String(repeating: "[", count: 70) + String(repeating: "]", count: 70))  // too deep
        line("[]")  // empty batch
        line("[1,2]")  // batch of garbage
        line(Requests.call(15, "next", Requests.demoPayload))  // still works
        let result = try DaemonProcess.run(deterministic + ["--max-frame-bytes", "1024"], input: input)
        #expect(result.status == 0)
        let messages = result.messages
        func code(_ m: JSONValue) -> Int64? { m["error"]?["code"]?.intValue }
        let expected: [Int64?] = [
            nil, nil, -32700, -32700, -32600, -32600, -32600, -32600, -32600, -32600, -32600,
            -32601, -32602, -32602, -32602, -32000, -32000, -32000, -32000, -32000, -32600, -32600, -32600,
        ]
        #expect(messages.count == expected.count + 2)
        #expect(messages.prefix(expected.count).map(code) == expected)
        #expect(messages[3]["error"]?["message"]?.stringValue?.contains("invalid UTF-8") == true)
        #expect(messages[5]["id"] == 3)
        #expect(messages[8]["id"] == .null)
        #expect(messages[15]["error"]?["message"] == "Failed to parse the JSON received from UI layer")
        #expect(messages[18]["error"]?["data"]?["detail"] == "the step has 2 callbacks, the payload has 1")
        #expect(messages[20]["error"]?["data"]?["limit"] == 1024)
        #expect(messages[23].arrayValue?.map(code) == [-32600, -32600])
        #expect(messages[24]["id"] == 15)
        #expect(messages[24]["result"]?["type"] == "LoginSuccess")
    }

    @Test func contentLengthFramingIsDetectedAndUsedForReplies() throws {
        let body = Requests.call(1, "daemon.hello")
        let result = try DaemonProcess.run(input: Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.hasPrefix("Content-Length: "))
        let reply = try JSONParser.parse(String(text[text.range(of: "\r\n\r\n")!.upperBound...]))
        #expect(reply["result"]?["framing"] == "content-length")
        #expect(reply["result"]?["protocolVersion"] == "1.0")
    }

    @Test func stdoutCarriesOnlyFramesLogsGoToStderr() throws {
        let result = try DaemonProcess.run(
            deterministic + ["--log-level", "debug"], lines: Requests.login + ["garbage", Requests.call(9, "logout")])
        #expect(!result.stderr.isEmpty)
        #expect(result.messages.allSatisfy { $0.stringValue?.hasPrefix("NOT JSON") != true })
        #expect(result.messages.count == 5)
        // Secrets never reach the log.
        #expect(!result.stderr.contains("Ch4ng3it!"))
        #expect(!result.stderr.contains("eyJ"))
    }

    @Test func partialLastLineIsDroppedAndLogged() throws {
        let result = try DaemonProcess.run(input: Array((Requests.call(1, "start") + "\n{\"jsonrpc\":").utf8))
        #expect(result.status == 0)
        #expect(result.messages.count == 1)
        #expect(result.stderr.contains("input ended inside a frame"))
    }

    @Test func shutdownAnswersThenExits() throws {
        let daemon = try DaemonProcess([])
        daemon.write(Requests.call(1, "daemon.shutdown") + "\n" + Requests.call(2, "start") + "\n")
        // stdin stays open: the daemon must exit on its own.
        let result = daemon.wait()
        daemon.closeInput()
        #expect(result.status == 0)
        #expect(result.messages == [["jsonrpc": "2.0", "id": 1, "result": .null]])
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalEndsCleanly(signal: Int32) throws {
        let daemon = try DaemonProcess([])
        daemon.write(Requests.call(1, "start") + "\n")
        // The answer first, so the signal arrives while the daemon idles in read(2).
        daemon.waitForLines(1)
        kill(daemon.process.processIdentifier, signal)
        let result = daemon.wait()
        daemon.closeInput()
        #expect(result.status == 0)
        #expect(result.messages.first?["result"] == "SDK initialized")
    }

    @Test func usageErrorsGoToStderrWithStatus2() throws {
        let result = try DaemonProcess.run(["--flavor", "windows-phone"], input: [])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("unknown flavor windows-phone"))
    }

    @Test(arguments: [["--help"], ["-h"], ["--seed", "7", "--help"], ["--help", "--no-such-flag"]])
    func helpPrintsTheUsageAndExits0(arguments: [String]) throws {
        let result = try DaemonProcess.run(arguments, input: [])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty, "stdout is the protocol's alone")
        #expect(result.stderr.hasPrefix("usage: authbridge [options]"))
        for option in ["--flavor", "--seed", "--clock", "--state-dir", "--log-level", "--version"] {
            #expect(result.stderr.contains(option), "the usage names \(option)")
        }
        #expect(!result.stderr.contains("unknown option"))
    }

    @Test func versionPrintsTheDaemonAndProtocolVersions() throws {
        let result = try DaemonProcess.run(["--version"], input: [])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "authbridge 0.1.0 (protocol 1.0)\n")
        // The same versions daemon.hello reports.
        let hello = try DaemonProcess.run(lines: [Requests.call(1, "daemon.hello")]).messages[0]["result"]
        #expect(result.stderr.contains(hello?["daemonVersion"]?.stringValue ?? "missing"))
        #expect(result.stderr.contains("protocol \(hello?["protocolVersion"]?.stringValue ?? "missing")"))
    }

    @Test func anUnknownOptionIsStillRefused() throws {
        let result = try DaemonProcess.run(["--helpme"], input: [])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("authbridge: unknown option --helpme"))
    }

    @Test func advanceClockNeedsTheVirtualClock() throws {
        let system = try DaemonProcess.run(lines: [Requests.call(1, "emulator.advanceClock", #"{"seconds":5}"#)])
        #expect(system.messages[0]["error"]?["code"] == -32602)
        let virtual = try DaemonProcess.run(
            ["--clock", "virtual=1000"], lines: [Requests.call(1, "emulator.advanceClock", #"{"seconds":5}"#)])
        #expect(virtual.messages[0]["result"] == ["now": 1005])
    }

    @Test func addUserTakesFlatAttributesOnly() throws {
        let run = try DaemonProcess.run(lines: [
            Requests.call(
                1, "emulator.addUser",
                #"{"username":"lee","password":"Passw0rd!","attributes":{"passwordResetRequired":true,"passwordGraceLogins":2}}"#
            ),
            Requests.call(
                2, "emulator.addUser", #"{"username":"kim","password":"Passw0rd!","attributes":{"a":{"b":1}}}"#),
            Requests.call(3, "emulator.addUser", #"{"username":"kim","password":"Passw0rd!","attributes":[1]}"#),
        ])
        #expect(run.messages[0]["result"]?["username"] == "lee")
        #expect(run.messages[1]["error"]?["code"] == -32602)
        #expect(run.messages[1]["error"]?["data"]?["param"] == "attributes")
        #expect(run.messages[2]["error"]?["code"] == -32602)
    }
}
