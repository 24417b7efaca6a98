/// Where a value sits in a JSON document, as a reader reached it: `callbacks[2].input[0].value`.
/// Kept as parts, so an error names the place and a caller can still ask which argument it was.
public struct JSONPath: Equatable, Sendable, CustomStringConvertible {
    public enum Component: Equatable, Sendable {
        case key(String)
        case index(Int)
    }

    public private(set) var components: [Component]

    /// A path starting at `root`: a name for the whole value ("config", "the step payload") or a
    /// dotted path already rendered ("server.users.demo"); "" is the document itself.
    public init(_ root: String = "") {
        components = root.isEmpty ? [] : [.key(root)]
    }

    public init(components: [Component]) { self.components = components }

    public func appending(_ key: String) -> JSONPath { JSONPath(components: components + [.key(key)]) }

    public func appending(index: Int) -> JSONPath { JSONPath(components: components + [.index(index)]) }

    /// Keys joined with `.`, indices in brackets: `callbacks[2].input[0].value`.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
