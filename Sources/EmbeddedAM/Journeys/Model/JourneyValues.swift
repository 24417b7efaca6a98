import AuthBridgeCore

/// How nodes read what clients answered: inputs arrive as whatever JSON the client sent.
enum JourneyValues {
    /// A value as text, the way the data store reads it (`nil` and `null` are "").
    static func text(_ value: JSONValue?) -> String {
        switch value {
        case .string(let s)?: return s
        case nil, .null?: return ""
        case let other?: return other.compactText
        }
    }

    /// A choice index as AM reads it: an integer, or a string of one (Flutter sends text).
    static func optionIndex(_ value: JSONValue?) -> Int? {
        if let i = value?.intValue, i >= 0 { return Int(i) }
        if let s = value?.stringValue, let i = Int(s), i >= 0 { return i }
        return nil
    }
}

extension JSONObject {
    /// Reads a dotted path (`objectAttributes.givenName`).
    func value(path: String) -> JSONValue? {
        var current: JSONValue = .object(self)
        for key in path.split(separator: ".") {
            guard let next = current[String(key)] else { return nil }
            current = next
        }
        return current
    }

    /// Writes a dotted path, creating objects on the way.
    mutating func set(path: String, to value: JSONValue) {
        let keys = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard let first = keys.first else { return }
        if keys.count == 1 {
            self[first] = value
            return
        }
        var child = self[first]?.objectValue ?? [:]
        child.set(path: keys[1], to: value)
        self[first] = .object(child)
    }
}

extension String {
    /// The first key of a dotted path.
    var rootKey: String? { split(separator: ".").first.map(String.init) }

    /// IDM attribute paths use `/` (`preferences/marketing`); shared state uses dots.
    var replacingSlashes: String { split(separator: "/").joined(separator: ".") }
}
