import AuthBridgeCore

/// A CREST query filter (`!(/preferences pr) or /preferences/marketing eq false`), parsed once
/// when the journey loads and evaluated against a stored user (Query Filter Decision). Supports
/// `and`, `or`, `!( )`, parentheses, `true`/`false`, and `eq co sw gt ge lt le pr` on JSON pointers.
indirect enum QueryFilter: Sendable {
    case literal(Bool)
    case not(QueryFilter)
    case and(QueryFilter, QueryFilter)
    case or(QueryFilter, QueryFilter)
    case present(String)
    case compare(String, String, JSONValue)

    static func parse(_ text: String) throws(SettingsError) -> QueryFilter {
        var parser = Parser(chars: Array(text))
        let filter = try parser.orExpr()
        parser.skipSpace()
        guard parser.index == parser.chars.count else { throw parser.error("unexpected text") }
        return filter
    }

    func matches(_ object: JSONObject) -> Bool {
        switch self {
        case .literal(let b): return b
        case .not(let f): return !f.matches(object)
        case .and(let a, let b): return a.matches(object) && b.matches(object)
        case .or(let a, let b): return a.matches(object) || b.matches(object)
        case .present(let pointer): return !(Self.value(object, pointer) ?? .null).isNull
        case .compare(let pointer, let op, let expected):
            guard let value = Self.value(object, pointer), !value.isNull else { return false }
            if let a = value.doubleValue, let b = expected.doubleValue, value.boolValue == nil {
                switch op {
                case "eq": return a == b
                case "gt": return a > b
                case "ge": return a >= b
                case "lt": return a < b
                case "le": return a <= b
                default: break
                }
            }
            if let a = value.boolValue, let b = expected.boolValue { return op == "eq" && a == b }
            let (a, b) = (JourneyValues.text(value).lowercased(), JourneyValues.text(expected).lowercased())
            switch op {
            case "eq": return a == b
            case "co": return a.contains(b)
            case "sw": return a.hasPrefix(b)
            case "gt": return a > b
            case "ge": return a >= b
            case "lt": return a < b
            case "le": return a <= b
            default: return false
            }
        }
    }

    private static func value(_ object: JSONObject, _ pointer: String) -> JSONValue? {
        object.value(path: pointer.split(separator: "/").joined(separator: "."))
    }

    private struct Parser {
        var chars: [Character]
        var index = 0

        func error(_ what: String) -> SettingsError {
            SettingsError(reason: "\"queryFilter\": \(what) at character \(index + 1)")
        }

        mutating func skipSpace() { while index < chars.count, chars[index] == " " { index += 1 } }

        mutating func word() -> String {
            skipSpace()
            let start = index
            while index < chars.count, !" ()".contains(chars[index]) { index += 1 }
            return String(chars[start..<index])
        }

        mutating func peekWord() -> String {
            let saved = index
            defer { index = saved }
            return word()
        }

        mutating func orExpr() throws(SettingsError) -> QueryFilter {
            var left = try andExpr()
            while peekWord() == "or" {
                _ = word()
                left = .or(left, try andExpr())
            }
            return left
        }

        mutating func andExpr() throws(SettingsError) -> QueryFilter {
            var left = try unary()
            while peekWord() == "and" {
                _ = word()
                left = .and(left, try unary())
            }
            return left
        }

        mutating func unary() throws(SettingsError) -> QueryFilter {
            skipSpace()
            guard index < chars.count else { throw error("a filter is missing") }
            if chars[index] == "!" {
                index += 1
                return .not(try unary())
            }
            if chars[index] == "(" {
                index += 1
                let inner = try orExpr()
                skipSpace()
                guard index < chars.count, chars[index] == ")" else { throw error("\")\" expected") }
                index += 1
                return inner
            }
            let pointer = word()
            if pointer == "true" || pointer == "false" { return .literal(pointer == "true") }
            guard !pointer.isEmpty else { throw error("a JSON pointer expected") }
            let op = word()
            if op == "pr" { return .present(pointer) }
            guard ["eq", "co", "sw", "gt", "ge", "lt", "le"].contains(op) else {
                throw error("unknown operator \"\(op)\"")
            }
            return .compare(pointer, op, try literal())
        }

        mutating func literal() throws(SettingsError) -> JSONValue {
            skipSpace()
            guard index < chars.count else { throw error("a value expected") }
            let quote = chars[index]
            if quote == "\"" || quote == "'" {
                index += 1
                let start = index
                while index < chars.count, chars[index] != quote { index += 1 }
                guard index < chars.count else { throw error("unterminated string") }
                let text = String(chars[start..<index])
                index += 1
                return .string(text)
            }
            let token = word()
            if token == "true" || token == "false" { return .bool(token == "true") }
            if let number = Double(token) { return .double(number) }
            throw error("\"\(token)\" is not a value (quote strings)")
        }
    }
}
