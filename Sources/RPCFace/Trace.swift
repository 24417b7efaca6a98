import AuthBridgeCore
import Host
import JSONRPC

/// `--log-level trace` / `--trace FILE`: one line per request, response and event, with the
/// wall-clock time and, for responses, how long the call took. Every value goes through
/// `Redaction` first. Lines go to `Log.shared.trace` (the trace file, else stderr), never stdout.
final class Tracer {
    private let clock = SystemClock()

    func request(_ call: RPCCall) -> ContinuousClock.Instant {
        let params = Redaction.params(of: call.method, call.params).map { " " + JSONWriter.compact($0) } ?? ""
        Log.shared.trace("\(timestamp()) request \(Self.id(call.id)) \(call.method)\(params)")
        return ContinuousClock.now
    }

    func response(_ call: RPCCall, since start: ContinuousClock.Instant, _ outcome: Result<JSONValue, JSONRPCError>) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let body: JSONValue
        switch outcome {
        case .success(let result): body = ["result": Redaction.value(result)]
        case .failure(let error): body = ["error": Redaction.value(Self.json(error), inError: true)]
        }
        Log.shared.trace(
            "\(timestamp()) response \(Self.id(call.id)) \(call.method) \(Self.format(milliseconds)) ms \(JSONWriter.compact(body))"
        )
    }

    /// The answer of a parked call, when it settles (its request was traced as it came).
    func reply(_ id: JSONValue, _ outcome: Result<JSONValue, JSONRPCError>) {
        let body: JSONValue
        switch outcome {
        case .success(let result): body = ["result": Redaction.value(result)]
        case .failure(let error): body = ["error": Redaction.value(Self.json(error), inError: true)]
        }
        Log.shared.trace(
            "\(timestamp()) response \(JSONWriter.compact(id)) (settled later) \(JSONWriter.compact(body))")
    }

    func event(_ name: String, _ params: JSONValue) {
        Log.shared.trace("\(timestamp()) event \(name) \(JSONWriter.compact(Redaction.value(params)))")
    }

    /// An answer the server gave without calling a method: a frame that was not JSON, not a
    /// request, or named no method.
    func refused(_ message: JSONValue) {
        let id = message["id"].map { JSONWriter.compact($0) } ?? "null"
        let error = Redaction.value(message["error"] ?? .null, inError: true)
        Log.shared.trace("\(timestamp()) response \(id) (refused) {\"error\":\(JSONWriter.compact(error))}")
    }

    private static func id(_ id: RequestID?) -> String {
        switch id {
        case .string(let text)?: return JSONWriter.compact(.string(text))
        case .int(let number)?: return String(number)
        case nil: return "-"
        }
    }

    private static func json(_ error: JSONRPCError) -> JSONValue {
        var object: JSONObject = ["code": .int(Int64(error.code)), "message": .string(error.message)]
        if let data = error.data { object["data"] = data }
        return .object(object)
    }

    private static func format(_ milliseconds: Double) -> String {
        let hundredths = Int((milliseconds * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// ISO 8601, UTC, milliseconds: 2026-01-01T00:00:00.000Z (real time, whatever `--clock` says).
    private func timestamp() -> String { ISO8601.formatMillis(clock.now) }
}

/// What the face writes to stdout goes through here on its way to the frame writer: through
/// the Host (`StdioConnection.Output`), so it cannot interleave with another face's events, and,
/// with tracing on, past the tracer for the errors the server answers without calling a method.
final class FaceSink: MessageSink {
    private let writer: FrameWriter
    private let output: StdioConnection.Output
    private let tracer: Tracer?

    init(writer: FrameWriter, output: @escaping StdioConnection.Output, tracer: Tracer?) {
        self.writer = writer
        self.output = output
        self.tracer = tracer
    }

    func send(_ body: [UInt8]) { output { self.writer.send(body) } }

    func send(response id: RequestID?, encoded result: EncodedResult) {
        output { self.writer.send(response: id, encoded: result) }
    }

    func send(message: JSONValue) {
        if let tracer { traceRefusals(message, tracer) }
        output { self.writer.send(message: message) }
    }

    private func traceRefusals(_ message: JSONValue, _ tracer: Tracer) {
        for reply in message.arrayValue ?? [message] {
            guard let code = reply["error"]?["code"]?.intValue else { continue }
            if [JSONRPCError.parseErrorCode, JSONRPCError.invalidRequestCode, JSONRPCError.methodNotFoundCode].map(
                Int64.init
            ).contains(code) {
                tracer.refused(reply)
            }
        }
    }
}

/// The method a caller probably meant: the same name in another case, the name without (or
/// with) its namespace, or one at most two edits away. None when nothing is that close.
enum MethodSuggestion {
    static func closest(to unknown: String, among names: [String]) -> String? {
        let lowered = unknown.lowercased()
        if let same = names.first(where: { $0.lowercased() == lowered }) { return same }
        if let namespaced = names.first(where: {
            $0.split(separator: ".").last.map(String.init)?.lowercased() == lowered
        }) {
            return namespaced
        }
        let bare = unknown.split(separator: ".").last.map { String($0).lowercased() } ?? lowered
        if let unnamespaced = names.first(where: { !$0.contains(".") && $0.lowercased() == bare }) {
            return unnamespaced
        }
        let limit = unknown.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(Array(lowered), Array(name.lowercased()))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        return best?.name
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// A stdio call as the inspector's timeline keeps it: the call and its outcome as they are (no
/// copy), redacted as the trace redacts them when the entry is read; a Ping module's method under
/// its own face.
enum TimelineRecord {
    static func call(
        _ call: RPCCall, began: Double, since start: ContinuousClock.Instant,
        _ outcome: Result<JSONValue, JSONRPCError>, _ concern: Timeline.Concern?, into timeline: Timeline
    ) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let (method, params) = (call.method, call.params)
        let failed: Bool
        if case .failure = outcome { failed = true } else { failed = false }
        timeline.record(
            method.hasPrefix("RNPing") ? .ping : .stdio, at: began, seconds: seconds, failed: failed, concern: concern
        ) {
            let response: JSONValue
            switch outcome {
            case .success(let result): response = ["result": Redaction.value(result)]
            case .failure(let error):
                var object: JSONObject = ["code": .int(Int64(error.code)), "message": .string(error.message)]
                if let data = error.data { object["data"] = data }
                response = ["error": Redaction.value(.object(object), inError: true)]
            }
            return Timeline.Shown(name: method, request: Redaction.params(of: method, params), response: response)
        }
    }
}
