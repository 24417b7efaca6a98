import AuthBridgeCore
import Host

/// `authbridge export --state-dir DIR`: the seed document (docs/seed.md) of what a state
/// directory holds, written to stdout, without starting a daemon. The same format
/// `emulator.export` answers and `--import` reads.
enum ExportCommand {
    static let name = "export"

    static let usage = """
        usage: authbridge export --state-dir DIR

        Writes the users, SSO sessions and OAuth clients saved in DIR (by a daemon run with
        --state-dir DIR, not running now) to stdout as a seed document (docs/seed.md), which
        --import and emulator.import read back.
        """

    static func run(_ arguments: [String]) -> Never {
        var directory: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                Log.shared.plain(usage + "\n")
                ProcessControl.exitNow(0)
            case "--state-dir":
                guard let value = rest.popFirst(), !value.isEmpty else { fail("--state-dir needs a directory") }
                directory = value
            case let other where other.hasPrefix("--state-dir="):
                directory = String(other.dropFirst("--state-dir=".count))
            default: fail("unknown option \(argument)")
            }
        }
        guard let directory, !directory.isEmpty else { fail("export needs --state-dir DIR") }
        switch Host.exportSeed(stateDirectory: directory) {
        case .success(let document):
            if let failure = FDIO.writeAll(FDIO.standardOutput, JSONWriter().bytes(document) + [0x0A]) {
                Log.shared.plain("authbridge export: cannot write stdout: \(failure.text)\n")
                ProcessControl.exitNow(1)
            }
            ProcessControl.exitNow(0)
        case .failure(let failure):
            Log.shared.plain("authbridge export: \(failure.message)\n")
            ProcessControl.exitNow(1)
        }
    }

    private static func fail(_ message: String) -> Never {
        Log.shared.plain("authbridge export: \(message)\n\n\(usage)\n")
        ProcessControl.exitNow(2)
    }
}
