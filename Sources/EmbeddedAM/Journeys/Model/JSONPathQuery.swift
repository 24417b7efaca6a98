import AuthBridgeCore

/// A JSONPath expression in Jayway's syntax (what the HTTP Client node evaluates on a response),
/// limited to the selectors reading a response needs: `$`, `.name`, `['name']`, `[n]` (negative
/// counts from the end), `[*]` and `.*`. Filters (`[?(…)]`), slices, unions and deep scans (`..`)
/// are refused when the journey loads, naming what is not supported, never guessed at.
struct JSONPathQuery: Sendable, Equatable {
    enum Selector: Sendable, Equatable {
        case key(String)
        case index(Int)
        case wildcard
    }

    struct ParseError: Error {
        var reason: String
    }

    var selectors: [Selector]

    /// A definite path names one place (Jayway answers its value); a wildcard makes it a list.
    var isDefinite: Bool { !selectors.contains(.wildcard) }

    static let maxLength = 1_000

    init(_ text: String) throws(ParseError) {
        guard text.utf8.count <= Self.maxLength else {
            throw ParseError(reason: "longer than \(Self.maxLength) bytes")
        }
        var rest = Substring(text)
        guard rest.first == "$" else { throw ParseError(reason: "must start with $") }
        rest.removeFirst()
        var selectors: [Selector] = []
        while let first = rest.first {
            rest.removeFirst()
            switch first {
            case ".":
                if rest.first == "." { throw ParseError(reason: "deep scan (..) is not supported") }
                if rest.first == "*" {
                    rest.removeFirst()
                    selectors.append(.wildcard)
                    continue
                }
                let name = rest.prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty else { throw ParseError(reason: "a name must follow '.'") }
                rest.removeFirst(name.count)
                selectors.append(.key(String(name)))
            case "[":
                guard let close = rest.firstIndex(of: "]") else { throw ParseError(reason: "'[' is not closed") }
                let inside = rest[..<close]
                rest = rest[rest.index(after: close)...]
                selectors.append(try Self.bracket(inside))
            default:
                throw ParseError(reason: "unexpected '\(first)'")
            }
        }
        self.selectors = selectors
    }

    private static func bracket(_ inside: Substring) throws(ParseError) -> Selector {
        if inside == "*" { return .wildcard }
        if let quote = inside.first, quote == "'" || quote == "\"" {
            guard inside.count >= 2, inside.last == quote else {
                throw ParseError(reason: "a quoted name is not closed")
            }
            let name = inside.dropFirst().dropLast()
            guard !name.contains(quote) else { throw ParseError(reason: "unions of names are not supported") }
            return .key(String(name))
        }
        if let index = Int(inside) { return .index(index) }
        if inside.hasPrefix("?") { throw ParseError(reason: "filters ([?(…)]) are not supported") }
        throw ParseError(reason: "[\(inside)] is not supported (a name in quotes, an index or *)")
    }

    /// What the path selects in `document`: the value of a definite path (nil when absent), the
    /// list of every match of one with a wildcard.
    func evaluate(_ document: JSONValue) -> JSONValue? {
        var current = [document]
        for selector in selectors {
            current = current.flatMap { value -> [JSONValue] in
                switch (selector, value) {
                case (.key(let key), .object(let object)): return object[key].map { [$0] } ?? []
                case (.index(let index), .array(let items)):
                    let at = index < 0 ? items.count + index : index
                    return items.indices.contains(at) ? [items[at]] : []
                case (.wildcard, .array(let items)): return items
                case (.wildcard, .object(let object)): return object.members.map(\.value)
                default: return []
                }
            }
        }
        if isDefinite { return current.first }
        return .array(current)
    }
}
