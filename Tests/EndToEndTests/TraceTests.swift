import AuthBridgeCore
import Foundation
import TestSupport
import Testing

/// `--log-level trace`, `--trace FILE`, and what the daemon says when a call goes wrong.
@Suite struct TraceEndToEnd {
    let deterministic = ["--seed", "7", "--clock", "virtual"]

    /// A session that passes through every kind of secret: the demo password, a password set by
    /// the test, authIds, access/refresh/id/SSO tokens (login, refresh, state), a one-time code,
    /// a suspended journey's id, a subject token.
    var session: [String] {
        let call = Requests.call
        return [
            call(1, "start", nil), call(2, "tokenSyncReady", nil), call(12, "login", nil),
            call(13, "next", Requests.demoPayload),
            call(20, "getUserInfo", nil), call(21, "getAccessToken", nil),
            call(22, "emulator.advanceClock", #"{"seconds":3550}"#), call(23, "getAccessToken", nil),
            call(24, "emulator.state", nil),
            call(25, "exchangeToken", #"["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"]"#),
            call(
                26, "tokenUpdate",
                #"[{"accessToken":"js-access-4711","refreshToken":"js-refresh-4711","expiresAt":1767229200}]"#),
            call(27, "logout", nil),
            call(28, "emulator.addUser", #"{"username":"ada","password":"An4lytical-Secret!"}"#),
            call(29, "emulator.setServiceNames", #"{"authServiceName":"SecondFactor"}"#),
            call(30, "login", nil),
            call(
                31, "next",
                #"["{\"callbacks\":[{\"type\":\"NameCallback\",\"input\":[{\"name\":\"IDToken1\",\"value\":\"ada\"}]},{\"type\":\"PasswordCallback\",\"input\":[{\"name\":\"IDToken2\",\"value\":\"An4lytical-Secret!\"}]}]}"]"#
            ),
            call(
                32, "next",
                #"["{\"callbacks\":[{\"type\":\"ChoiceCallback\",\"input\":[{\"name\":\"IDToken1\",\"value\":0}]}]}"]"#),
            call(33, "emulator.lastOneTimeCode", nil),
            call(34, "emulator.setServiceNames", #"{"authServiceName":"EmailSuspend"}"#),
            call(35, "login", nil),
            call(
                36, "next",
                #"["{\"callbacks\":[{\"type\":\"NameCallback\",\"input\":[{\"name\":\"IDToken1\",\"value\":\"demo\"}]}]}"]"#
            ),
            call(37, "emulator.lastSuspendedJourney", nil),
        ]
    }

    /// Every secret value the daemon answered with, found by key, inside JSON strings too.
    static func secrets(in value: JSONValue, into found: inout Set<String>, key: String? = nil, inError: Bool = false) {
        let secretKeys: Set<String> = [
            "accessToken", "refreshToken", "idToken", "sessionToken", "authId", "code", "suspendedId", "resumeUri",
            "value",
        ]
        switch value {
        case .string(let text):
            if let key, secretKeys.contains(key), !(inError && key == "code"), text.count >= 6, !text.hasSuffix("...") {
                found.insert(text)
            }
            if text.hasPrefix("{"), let inner = try? JSONParser.parse(text) { secrets(in: inner, into: &found) }
        case .array(let list): for element in list { secrets(in: element, into: &found) }
        case .object(let object):
            // A callback's {name, value} pairs are prompts and inputs, not secrets the server made.
            if object["name"] != nil { return }
            for member in object.members {
                secrets(in: member.value, into: &found, key: member.key, inError: inError || member.key == "error")
            }
        default: break
        }
    }

    @Test func aFullTraceShowsEveryCallAndNoSecret() throws {
        let result = try DaemonProcess.run(deterministic + ["--log-level", "trace"], lines: session)
        #expect(result.status == 0)
        var secrets: Set<String> = [
            "Ch4ng3it!", "An4lytical-Secret!", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl", "js-access-4711",
            "js-refresh-4711",
        ]
        for message in result.messages { Self.secrets(in: message, into: &secrets) }
        // The session really produced each kind of secret, so their absence below means something.
        let answered = String(decoding: result.stdout, as: UTF8.self)
        for marker in ["authId", "accessToken", "refreshToken", "sessionToken", "\"code\":\"", "suspendedId"] {
            #expect(answered.contains(marker), "the session answers \(marker)")
        }
        #expect(secrets.count >= 15, "found \(secrets.count) secrets in the answers")
        for secret in secrets {
            #expect(!result.stderr.contains(secret), "the trace leaks \(secret.prefix(16))…")
        }
        let traceLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("authbridge trace: ") }
        // Every request and its response, each event.
        let requests = traceLines.filter { $0.contains(" request ") }
        let responses = traceLines.filter { $0.contains(" response ") }
        #expect(requests.count == session.count)
        #expect(responses.count == session.count)
        #expect(traceLines.contains { $0.contains(" event TOKEN_EVENT ") && $0.contains("\"reason\":\"refresh\"") })
        #expect(traceLines.contains { $0.contains(" event TOKEN_REQUEST_EVENT ") })
        let timestamped = try Regex(
            #"^authbridge trace: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (request|response|event|journey-failure) "#)
        #expect(traceLines.allSatisfy { $0.firstMatch(of: timestamped) != nil })
        let timed = try Regex(#" response 13 next \d+\.\d\d ms \{"result":\{"type":"LoginSuccess""#)
        #expect(traceLines.contains { $0.firstMatch(of: timed) != nil })
        // What is not secret stays readable: the username typed, the method names, the claims.
        #expect(result.stderr.contains(#"\"value\":\"demo\""#))
        #expect(result.stderr.contains("demo@example.com"))
        #expect(result.stderr.contains("[redacted]"))
    }

    @Test func theTraceChangesNothingOnStdoutAndGoesToItsFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "authbridge-trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("trace.log").path
        let plain = try DaemonProcess.run(deterministic, lines: session)
        let traced = try DaemonProcess.run(deterministic + ["--log-level", "trace"], lines: session)
        let toFile = try DaemonProcess.run(deterministic + ["--trace", file], lines: session)
        #expect(plain.stdout == traced.stdout)
        #expect(plain.stdout == toFile.stdout)
        #expect(!toFile.stderr.contains("authbridge trace:"), "with --trace the trace is in the file only")
        #expect(!plain.stderr.contains("authbridge trace:"))
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.split(separator: "\n").filter { $0.contains(" request ") }.count == session.count)
        #expect(!written.contains("Ch4ng3it!"))
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func anUnwritableTraceFileStopsTheStartWithAReason() throws {
        let result = try DaemonProcess.run(["--trace", "/nonexistent-dir/trace.log"], input: [])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot write the trace file /nonexistent-dir/trace.log"))
        let empty = try DaemonProcess.run(["--log-level", "loud"], input: [])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("--log-level is error, warn, info, debug or trace, got loud"))
    }

    @Test func aCallBeforeStartKeepsTheNativeMessageAndTheLogSaysWhatToDo() throws {
        for (flavor, start) in [("rn-ios", "start"), ("rn-android", "start"), ("flutter-ios", "frAuthStart")] {
            let result = try DaemonProcess.run(
                deterministic + ["--flavor", flavor],
                lines: [
                    Requests.call(1, "login"), Requests.call(2, start), Requests.call(3, "login"),
                ])
            let first = result.messages[0]["error"]
            switch flavor {
            case "rn-ios": #expect(first?["message"] == "Invalid SDK State: initialize SDK using FRAuth.start() first")
            case "rn-android": #expect(first?["message"] == "SDK not initialized; please check the log for details")
            default: break
            }
            #expect(result.messages[2]["result"]?.stringValue != nil, "\(flavor): login works after \(start)")
            let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("authbridge warn:") }
            #expect(
                warnings == [
                    "authbridge warn: login() was rejected because the SDK is not initialized: call \(start)() first"
                ], "\(flavor)")
        }
    }

    @Test func aMisspelledMethodGetsASuggestionAndTheMessageStaysAsItWas() throws {
        let result = try DaemonProcess.run(
            deterministic,
            lines: [
                Requests.call(1, "Login"), Requests.call(2, "getuserinfo"),
                Requests.call(3, "advanceClock", #"{"seconds":1}"#),
                Requests.call(4, "logn"), Requests.call(5, "noSuchMethod"), Requests.call(6, "getAccessTokens"),
                #"[{"jsonrpc":"2.0","id":7,"method":"Start"}]"#,
            ])
        let errors = result.messages.prefix(6).map { $0["error"] }
        #expect(errors[0]?["message"] == "Method not found: Login")
        #expect(errors[0]?["code"] == -32601)
        #expect(
            errors.map { $0?["data"]?["suggestion"] } == [
                "login", "getUserInfo", "emulator.advanceClock", "login", nil, "getAccessToken",
            ])
        #expect(errors[4]?["data"] == nil, "nothing close: no data, as before")
        #expect(result.messages[6].arrayValue?.first?["error"]?["data"]?["suggestion"] == "start")
    }

    @Test func nextWithAnObjectSaysToStringifyIt() throws {
        let result = try DaemonProcess.run(
            deterministic,
            lines: Requests.login.prefix(2) + [
                Requests.call(3, "next", #"[{"callbacks":[]}]"#), Requests.call(4, "next", "[5]"),
                Requests.call(5, "tokenUpdate", "[[1]]"),
            ])
        let object = result.messages[2]["error"]
        #expect(object?["code"] == -32602)
        #expect(object?["message"] == "Invalid params: the step payload must be a string, got object")
        #expect(object?["data"]?["hint"] == "pass a JSON string, not an object: next(JSON.stringify(step))")
        #expect(result.messages[3]["error"]?["data"]?["hint"] == nil, "a number is not a forgotten JSON.stringify")
        #expect(result.messages[4]["error"]?["data"]?["hint"] == nil, "tokenUpdate takes an object")
    }

    static let password = "Tr4ce-Pa55word"
    static let numericSecret = "918273645"

    /// `next` payloads the redaction cannot read or does not know, each holding the password: bad
    /// escapes, nesting past the parser's limit, cut-off and bare payloads, callbacks in shapes
    /// other than AM's, secret-looking keys it has no name for.
    static var hostilePayloads: [String] {
        let p = password
        let deep = String(repeating: "[", count: 70) + "\"\(p)\"" + String(repeating: "]", count: 70)
        let deepObject = String(repeating: #"{"a":"#, count: 70) + "\"\(p)\"" + String(repeating: "}", count: 70)
        return [
            #"{"callbacks":[{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"\#(p)\q"}]}]}"#,
            #"{"callbacks":[{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"\#(p)"}]}]"#,
            #"{"callbacks":[{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"\#(p)"#,
            #"{"callbacks":[{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"\#(p)\ud800"}]}]}"#,
            "{\"password\":\"\(p)\u{01}\"}",
            deep, deepObject, p, "\"\(p)\"", " \(p)", "x{\"password\":\"\(p)\"}",
            #"{"callbacks":[{"input":[{"name":"IDToken2","value":"\#(p)"}]}]}"#,
            #"{"callbacks":[{"type":"PasswordCallback","input":{"name":"IDToken2","value":"\#(p)"}}]}"#,
            #"{"callbacks":[{"type":"PasswordCallback","input":[["\#(p)"]]}]}"#,
            #"{"callbacks":[{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"x","extra":"\#(p)"}]}]}"#,
            #"{"callbacks":[{"type":["PasswordCallback"],"input":[{"name":"IDToken2","value":"\#(p)"}]}]}"#,
            #"{"callbacks":["\#(p)"]}"#,
            #"{"mySecretThing":"\#(p)","userPassword":{"deep":["\#(p)"]},"apiToken":\#(numericSecret)}"#,
            #"{"callbacks":[{"type":"NameCallback","input":[{"name":"newPassword","value":"\#(p)"}]}]}"#,
        ]
    }

    /// The valid step with the password, damaged a few bytes at a time (seeded), never inside
    /// the password itself.
    static func mutatedPayloads(count: Int, seed: UInt64) -> [String] {
        let base = Array(
            #"{"authId":"a","callbacks":[{"type":"NameCallback","input":[{"name":"IDToken1","value":"demo"}]},{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"\#(password)"}]}]}"#
                .utf8)
        let alphabet = Array(#"{}[]",:\ x0"#.utf8)
        let random = SeededRandomSource(seed: seed)
        var payloads: [String] = []
        for _ in 0..<count {
            var bytes = base
            for _ in 0...random.uniform(3) {
                let start = bytes.firstRange(of: Array(password.utf8))!.lowerBound
                let end = start + password.utf8.count
                // A position before the password or after it, never inside.
                let before = end == bytes.count || random.uniform(2) == 0
                let position =
                    before ? Int(random.uniform(UInt64(start))) : end + Int(random.uniform(UInt64(bytes.count - end)))
                switch random.uniform(4) {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(alphabet[Int(random.uniform(UInt64(alphabet.count)))], at: position)
                case 2: bytes.insert(bytes[position], at: position)
                default: if !before { bytes.removeSubrange(position...) }
                }
            }
            payloads.append(String(decoding: bytes, as: UTF8.self))
        }
        return payloads
    }

    @Test func payloadsTheTraceCannotReadAreRedactedWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "authbridge-trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("trace.log").path
        let payloads = Self.hostilePayloads + Self.mutatedPayloads(count: 300, seed: 30)
        var lines = [Requests.call(1, "start"), Requests.call(2, "login")]
        for (index, payload) in payloads.enumerated() {
            lines.append(Requests.call(10 + index, "next", JSONWriter.compact([.string(payload)])))
        }
        // The same secrets as params of other shapes, and whole frames that are not JSON or nest too deep.
        let p = Self.password
        lines += [
            Requests.call(
                5000, "next",
                #"[{"callbacks":[{"type":"PasswordCallback","input":{"name":"IDToken2","value":"\#(p)"}}]}]"#),
            Requests.call(
                5001, "emulator.addUser", #"{"username":"eve","password":"\#(p)","clientSecretish":"\#(p)"}"#),
            #"{"jsonrpc":"2.0","id":5002,"method":"next","params":["{\"password\":\"\#(p)\q"]}"#,
            #"{"jsonrpc":"2.0","id":5003,"method":"next","params":"# + String(repeating: "[", count: 70) + "\"\(p)\""
                + String(repeating: "]", count: 70) + "}",
            Requests.call(5004, "login"), Requests.call(5005, "next", Requests.demoPayload),
        ]
        let traced = try DaemonProcess.run(deterministic + ["--log-level", "trace"], lines: lines)
        let toFile = try DaemonProcess.run(deterministic + ["--trace", file], lines: lines)
        #expect(traced.status == 0)
        #expect(traced.messages.last?["result"]?["type"] == "LoginSuccess", "the session still works")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        for (name, text) in [
            ("stderr", traced.stderr), ("the trace file", written), ("stderr with --trace", toFile.stderr),
        ] {
            #expect(!text.contains(p), "\(name) shows the password")
            #expect(!text.contains(Self.numericSecret), "\(name) shows a numeric secret")
        }
        let requests = written.split(separator: "\n").filter { $0.contains(" request ") && $0.contains(" next ") }
        #expect(requests.count == payloads.count + 2, "every next is traced")
        #expect(written.contains(#" next ["<unreadable payload, "#))
        let firstBytes = payloads[0].utf8.count
        #expect(
            written.contains("<unreadable payload, \(firstBytes) bytes, redacted>"),
            "the bad escape's payload, by its size")
        #expect(written.contains(#"\"value\":\"demo\""#), "what is not secret stays readable")
    }
}
