/// Why saved state could not be read back: the message starts with the member at fault
/// ("server.users[2].username: expected a string, found integer").
public struct StateError: Error, Equatable, Sendable {
    public let message: String

    public init(_ message: String) { self.message = message }
}

/// Reads one object of saved state (`--state-dir`) with errors that name the member at fault,
/// so a corrupt file is reported precisely instead of being silently replaced.
public typealias StateReader = JSONReader<StateError>

extension StateError: JSONReadFailure {
    /// Saved state's wording of a read error: `path: missing`, `path: expected …, found …`.
    public init(_ error: JSONReadError) {
        let path = error.path.description
        switch (error.expected, error.found) {
        case (_, .missing):
            self.init("\(path): missing")
        case (.time, .value(.double(let seconds))):
            self.init("\(path): \(seconds) is not a time (\(TimeBounds.description))")
        case (.seconds, .value(.int(let seconds))):
            self.init("\(path): \(seconds) is not a number of seconds from 0 to \(Int64(TimeBounds.latest))")
        case (let expected, let found):
            let orNull = error.nullAllowed ? " or null" : ""
            self.init("\(path): expected \(expected.phrase)\(orNull), found \(found.kind?.rawValue ?? "nothing")")
        }
    }
}
