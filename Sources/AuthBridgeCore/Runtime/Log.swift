/// Diagnostics on stderr, one line each with a level. Never pass a password, token or secret:
/// callers log names and shapes, not values.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    case error = 0, warn, info, debug

    public init?(name: String) {
        switch name.lowercased() {
        case "error": self = .error
        case "warn", "warning": self = .warn
        case "info": self = .info
        case "debug": self = .debug
        default: return nil
        }
    }

    public var name: String { ["error", "warn", "info", "debug"][rawValue] }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

public final class Log: @unchecked Sendable {
    public static let shared = Log()

    private let lock = Lock()
    private var level: LogLevel = .warn

    public func setLevel(_ newLevel: LogLevel) { lock.withLock { level = newLevel } }

    public func isEnabled(_ messageLevel: LogLevel) -> Bool { lock.withLock { messageLevel <= level } }

    public func write(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(messageLevel) else { return }
        let line = "authbridge \(messageLevel.name): \(message())\n"
        lock.withLock { Self.writeToStderr(line) }
    }

    /// Unconditional stderr text (banners, usage), not a log entry.
    public func plain(_ text: String) {
        lock.withLock { Self.writeToStderr(text) }
    }

    private static func writeToStderr(_ text: String) {
        FDIO.writeAll(FDIO.standardError, Array(text.utf8))
    }
}

public func logError(_ message: @autoclosure () -> String) { Log.shared.write(.error, message()) }
public func logWarn(_ message: @autoclosure () -> String) { Log.shared.write(.warn, message()) }
public func logInfo(_ message: @autoclosure () -> String) { Log.shared.write(.info, message()) }
public func logDebug(_ message: @autoclosure () -> String) { Log.shared.write(.debug, message()) }
