import AuthBridgeCore
import EmbeddedAM
import StateStore

/// Seed data in, state out (docs/seed.md): `--import`, `emulator.import`, `emulator.export`,
/// `emulator.reset` and the admin API's counterparts, as operations on the world.
extension World {
    /// Where a document to import comes from, for the error that names it.
    public enum SeedSource: Sendable {
        case inline(JSONValue)
        case file(String)
    }

    /// Why an import was refused: the document's fault (`SeedError`, by its JSON path), or a
    /// file that could not be read.
    public enum ImportFailure: Error, Sendable {
        case document(SeedError)
        case file(path: String, reason: String)

        public var message: String {
            switch self {
            case .document(let error): return error.description
            case .file(let path, let reason): return "cannot read \(path): \(reason)"
            }
        }
    }

    /// Reads and checks a document in full, then loads it (`EmbeddedAM.importSeed`): nothing is
    /// changed unless all of it is valid.
    public func importSeed(_ source: SeedSource) throws(ImportFailure) -> EmbeddedAM.SeedSummary {
        let minimum = embedded.config.passwordHashIterations
        let document: SeedDocument
        switch source {
        case .inline(let json):
            do { document = try SeedDocument(json: json, minimumIterations: minimum) } catch { throw .document(error) }
        case .file(let path):
            // Refused from its size before it is read: a 1 GB file is never held in memory.
            switch FileBytes.read(path: path, limit: SeedDocument.maxBytes) {
            case .success(let bytes):
                do { document = try SeedDocument.read(bytes, minimumIterations: minimum) } catch {
                    throw .document(error)
                }
            case .failure(let failure): throw .file(path: path, reason: failure.text)
            }
        }
        do { return try embedded.importSeed(document) } catch { throw .document(error) }
    }

    /// The server's users, sessions and clients as a seed document.
    public func exportSeed() -> JSONValue { embedded.exportSeed() }

    /// Back to the state right after the start (`--state-dir` loaded, `--import` applied),
    /// without a respawn: the server's users, devices, sessions, grants and imported clients, the
    /// native credentials, the Ping SDK's stores and the emulated phones are restored from what
    /// the state book held then; journeys in flight are dropped and faults cleared. The clock and the seeded stream
    /// go on from where they are: time does not run backwards. With `--state-dir` the restored
    /// state is written as a new snapshot.
    public func reset() throws(EmulatorError) {
        let (generation, tokens) = (sdk.tokens.generation, sdk.tokens.accessToken)
        do {
            for owner in owners.owners where !Self.keptByReset.contains(owner.stateKey) {
                let mine = startEntries.entries(under: [owner.stateKey]).map { StateEntry($0.0, $0.1) }
                try owner.restoreState(mine, rollingBack: true)
            }
        } catch {
            // What the start held was read back once already; a failure here is a bug, not input.
            throw EmulatorError(param: "", reason: "the start state could not be restored: \(error.message)")
        }
        embedded.dropJourneysInFlight()
        // The start state had no faults: a reset clears the plan too.
        _ = faultPlan.clear(id: nil)
        sdk.tokens.continueAfterReset(generation: generation, tokens: tokens)
        owners.settle()
        if let directory = stateDirectory {
            do { try compact(directory) } catch {
                throw EmulatorError(param: "", reason: "the reset state could not be saved: \(error.message)")
            }
        }
    }

    /// The owners a reset leaves alone: time and the seeded stream only go forward.
    static let keptByReset: Set<String> = ["clock", "random"]

    /// `--import FILE` at start, after the state directory was loaded; with one, the result is
    /// its new snapshot.
    func importAtStart(_ path: String) throws(StartFailure) {
        if let remote = configuration.remote {
            throw StartFailure(
                message:
                    "--import loads the embedded server; server.kind is remote (\(remote.url)): import in the tenant",
                status: 2)
        }
        do {
            let summary = try importSeed(.file(path))
            logInfo(
                "imported \(summary.users) users, \(summary.sessions) sessions, \(summary.clients) clients from \(path)"
            )
        } catch {
            throw StartFailure(message: "--import \(path) refused: \(error.message)", status: 2)
        }
        if let directory = stateDirectory {
            do { try compact(directory) } catch { throw StartFailure(message: error.message) }
        }
        owners.settle()
    }
}

extension Host {
    /// `authbridge export --state-dir DIR`: the seed document of what a state directory holds,
    /// read without starting a daemon (the directory is locked while it is read, so a daemon
    /// running on it is reported instead of raced).
    public static func exportSeed(stateDirectory path: String) -> Result<JSONValue, StartFailure> {
        // Only an existing directory: opening one would create it.
        guard case .success = FDIO.status(ofPath: path) else {
            return .failure(StartFailure(message: "no state directory at \(path)"))
        }
        do {
            let directory = try StateDirectory(path: path)
            guard let saved = try directory.load(recovery: .refuse) else {
                return .failure(StartFailure(message: "\(path) holds no saved state"))
            }
            let (entries, _) = try SavedState.entries(saved)
            let server = EmbeddedAM(clock: SystemClock(), random: SystemRandomSource())
            let mine = entries.entries(under: [server.stateKey]).map { StateEntry($0.0, $0.1) }
            try server.restoreState(mine, rollingBack: false)
            return .success(server.exportSeed())
        } catch let failure as StateDirectory.Failure {
            return .failure(StartFailure(message: failure.message))
        } catch let error as StateError {
            return .failure(StartFailure(message: "the state file in \(path) is invalid: \(error.message)"))
        } catch {
            return .failure(StartFailure(message: "\(error)"))
        }
    }
}
