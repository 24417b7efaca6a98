import AuthBridgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
    import MachO  // _NSGetExecutablePath
#endif

/// `authbridge --server …` in the default build: replaces this process with `authbridge-remote`
/// from the same directory, same arguments, same stdin/stdout/stderr. The default binary stays
/// fully static and quick to spawn; only remote mode loads the system's libcurl.
enum RemoteHandOver {
    static let binaryName = "authbridge-remote"

    static func exec(_ arguments: [String]) -> Never {
        let path = sibling()
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        Log.shared.plain(
            "authbridge: remote mode (--server, --config) runs \(path), which could not be started: \(reason); "
                + "build it with `swift build`, or install both binaries with `make install REMOTE=1`\n")
        ProcessControl.exitNow(1)
    }

    /// This executable's directory (`/proc/self/exe` on Linux, `_NSGetExecutablePath` on macOS):
    /// where `swift build` and `make install REMOTE=1` put both binaries.
    private static func sibling() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        #if canImport(Glibc)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        #else
            var size = UInt32(buffer.count)
            var count = _NSGetExecutablePath(&buffer, &size) == 0 ? strlen(buffer) : -1
            // Unlike /proc/self/exe this may name a symbolic link (authbridge linked onto PATH); the
            // sibling is beside the file itself.
            if count > 0, let real = realpath(buffer, nil) {
                buffer = Array(UnsafeBufferPointer(start: real, count: strlen(real)))
                count = buffer.count
                free(real)
            }
        #endif
        let own =
            count > 0
            ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        guard let slash = own.lastIndex(of: "/") else { return binaryName }
        return String(own[...slash]) + binaryName
    }
}
