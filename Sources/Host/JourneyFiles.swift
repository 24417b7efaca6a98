import AuthBridgeCore
import EmbeddedAM

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--journeys PATH`: a file, or a directory whose `*.json` files are all read (in name order,
/// not descending into subdirectories). What each holds is told from its content by
/// `JourneyImport`; here only the reading happens, and a path that cannot be read stops the start.
enum JourneyFiles {
    static func sources(_ paths: [String]) throws(Host.StartFailure) -> [JourneyImport.Source] {
        var sources: [JourneyImport.Source] = []
        for path in paths {
            if let names = directoryEntries(path) {
                let files = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
                guard !files.isEmpty else {
                    throw Host.StartFailure(message: "the journeys directory \(path) holds no .json files")
                }
                for name in files { sources.append(try read(path.hasSuffix("/") ? path + name : path + "/" + name)) }
            } else {
                sources.append(try read(path))
            }
        }
        return sources
    }

    private static func read(_ path: String) throws(Host.StartFailure) -> JourneyImport.Source {
        switch FileBytes.read(path: path) {
        case .success(let bytes): return JourneyImport.Source(path: path, text: String(decoding: bytes, as: UTF8.self))
        case .failure(let error):
            throw Host.StartFailure(message: "cannot read the journeys file \(path): \(error.text)")
        }
    }

    /// The entries of `path` when it is a directory; nil otherwise.
    private static func directoryEntries(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
