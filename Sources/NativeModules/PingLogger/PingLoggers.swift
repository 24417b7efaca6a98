import AuthBridgeCore
import NativeSDK

/// The RN core's logger registry (`CoreRuntime.loggerRegistry`): the loggers `RNPingLogger`
/// registered, by id, each at a native level. The other modules take a `loggerId` in their
/// config and log through that logger; an id nobody registered is no logger, not an error
/// (`resolveLoggerFromCore` in `oath/ios/RNPingOathCommon.swift` and its Android twin answer nil).
///
/// Android's `registerLogger` and `syncLogger` also make that logger the SDK-wide one
/// (`Logger.logger = …` in `logger/android/…/RNPingLoggerCommon.kt`), which a client made without
/// a `loggerId` uses; iOS has no such step (`logger/ios/RNPingLoggerImpl.swift`), so a client
/// without one logs nothing.
///
/// A line goes to the daemon's stderr when the logger's level lets it through, whatever the
/// daemon's own `--log-level`: that is what the app asked for. Lines never carry a secret or a
/// code (the natives log ids and issuers only).
public final class PingLoggers {
    /// The native levels (`NativeLoggerLevel`): STANDARD logs everything (`LogManager.standard`),
    /// WARN warnings and errors (`LogManager.warning`), NONE nothing. Anything else reads NONE.
    enum Level: String { case standard = "STANDARD", warn = "WARN", none = "NONE" }

    private var levels: [String: Level] = [:]
    /// Android: the logger registered or synced last.
    private var sdkWide: String?

    public init() {}

    func contains(_ id: String) -> Bool { levels[id] != nil }

    func register(_ level: Level, id: String) {
        levels[id] = level
        sdkWide = id
    }

    /// False when no logger has this id (the call is then ignored, as on both platforms).
    func sync(_ id: String, to level: Level) -> Bool {
        guard levels[id] != nil else { return false }
        levels[id] = level
        sdkWide = id
        return true
    }

    func level(of id: String) -> Level? { levels[id] }

    /// The logger a native client made with `loggerId` logs through, on `platform`.
    func resolve(_ loggerId: String?, platform: Platform) -> String? {
        if let loggerId, !loggerId.isEmpty, levels[loggerId] != nil { return loggerId }
        return platform == .android ? sdkWide : nil
    }

    /// Writes a native log line through logger `id` (from `resolve`), if its level lets `level` through.
    func log(_ id: String?, _ level: LogLevel, _ tag: String, _ message: @autoclosure () -> String) {
        guard let id, let loggerLevel = levels[id] else { return }
        switch (loggerLevel, level) {
        case (.none, _), (.warn, .info), (.warn, .debug), (.warn, .trace): return
        default: Log.shared.plain("authbridge native \(level.name): [\(tag)] \(message())\n")
        }
    }
}
