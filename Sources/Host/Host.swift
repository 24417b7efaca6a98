import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import NativeModules
import Synchronization

/// The one owner of the world, and the only way into it. Every face (stdio RPC, HTTP, signals)
/// does its work as units: `perform` runs one with the world to itself, makes what it changed
/// durable, hands the events it caused to the stdio host, and only then gives the face its
/// answer — or rolls the world back to what the disk holds and gives `NotDurable` instead, which
/// the face answers. The world sits behind a `Mutex`: nothing in it has a lock of its own, and
/// the compiler keeps it off every other thread.
public final class Host: Sendable {
    public static let productVersion = "0.1.0"

    public struct StartFailure: Error, Sendable {
        public let message: String
        /// The exit status: 1, or 2 for a configuration the start cannot use (as a usage error).
        public let status: Int32
        public init(message: String, status: Int32 = 1) {
            self.message = message
            self.status = status
        }
    }

    /// Why a unit of work could not be made durable; the world was rolled back to what the disk
    /// holds, and the unit's events were dropped.
    public struct NotDurable: Error, Sendable {
        public let reason: String
    }

    /// Builds a client for a remote tenant (`configuration.remote`): the executable passes one,
    /// so the HTTP client's Foundation stays out of every other target.
    public typealias Connect = @Sendable (RemoteServerSettings) throws(StartFailure) -> any IdentityServer

    public let configuration: HostConfiguration
    /// What faces read of the world without entering it: fixed once the world is built.
    public let view: View
    /// The inspector's timeline (the world's), for faces to record into outside their units.
    public let timeline: Timeline?
    private let world: Mutex<World>

    public init(configuration: HostConfiguration, connect: Connect? = nil) throws(StartFailure) {
        let world = try World(configuration: configuration, connect: connect)
        self.configuration = configuration
        view = View(world)
        timeline = world.timeline
        self.world = Mutex(world)
    }

    public var isRemote: Bool { configuration.remote != nil }

    /// One unit of work: runs `work` with the world to itself, makes its changes durable, hands
    /// its events to the stdio host and flushes them (unless `flushing` is false: the stdio face
    /// flushes once per chunk of input it reads), waits for them to be written, then answers. Whatever `work` returns — a
    /// rejection too, since a failed login changes counters — is answered only once durable;
    /// when the state cannot be saved the world is rolled back and the answer is `NotDurable`.
    /// Not reentrant.
    public func perform<T: Sendable>(flushing: Bool = true, _ work: (World) -> T) -> Result<T, NotDurable> {
        performNoting(flushing: flushing, work).outcome
    }

    /// The same, and, with the timeline kept, what the unit concerned (the user and journey the
    /// server learned while answering, `UnitConcern`): the face names them on its entry.
    public func performNoting<T: Sendable>(
        flushing: Bool = true, _ work: (World) -> T
    ) -> (
        outcome: Result<T, NotDurable>, concern: UnitConcern?
    ) {
        let (outcome, concern, writtenWait) = world.withLock { world in
            let recording = world.timeline != nil
            let failureBefore = recording ? world.embedded.lastFailure : nil
            if recording { _ = world.embedded.takeConcern() }
            let answer = work(world)
            let outcome: Result<T, NotDurable>
            let concern = recording ? world.embedded.takeConcern() : nil
            do throws(NotDurable) {
                try world.commit()
                outcome = .success(answer)
                if recording { world.recordJourneyFailure(since: failureBefore) }
                world.unitWatchers.unitEnded(world)
            } catch {
                outcome = .failure(error)
            }
            if flushing { world.eventSink?.flush() }
            let writtenWait = world.eventSink?.takeWrittenWait()
            return (outcome, concern, flushing ? writtenWait : nil)
        }
        // A unit that handed events over waits here, the world released, until they are written
        // to the stdio host, so its face answers after them (an HTTP response never overtakes
        // the LOGOUT_EVENT it caused); other units go on meanwhile, and a unit that caused no
        // events does not wait for a host that is not reading.
        writtenWait?()
        return (outcome, concern)
    }

    /// What a face writes to the stdio host between its units (a response) goes through here,
    /// with the world held: it cannot interleave with the events another face's unit hands over.
    /// The write only queues the bytes (the stdio face's writer thread writes them), so the world
    /// is never held while the host is slow to read.
    public func output(_ write: () -> Void) {
        world.withLock { _ in write() }
    }

    /// Attaches (or, with nil, detaches) the stdio host's event sink.
    public func attach(_ sink: EventSink?) {
        perform(flushing: false) { world in world.eventSink = sink }.discard()
    }

    /// Takes the world and never gives it back: the unit under way is complete, its changes
    /// durable, and the stdio host has the answers to the input it sent so far, when `end` runs
    /// (a shutdown signal's exit). What does not finish within `grace` seconds is stuck writing
    /// to a host that stopped reading; every change answered so far is already durable, so `end`
    /// runs anyway and is told (`waited` false). (`Mutex` has no timed wait, so the world is
    /// tried every few milliseconds, only here at the end.)
    public func stop(grace: Double, _ end: (_ waited: Bool) -> Never) -> Never {
        let deadline = ContinuousClock.now + .milliseconds(Int64(grace * 1000))
        repeat {
            world.withLockIfAvailable { world in
                if world.eventSink?.isAnswering != true { end(true) }
            }
            ProcessControl.sleep(seconds: 0.005)
        } while ContinuousClock.now < deadline
        end(false)
    }
}

extension Result where Failure == Host.NotDurable {
    /// Attaching the sink saves nothing, so there is nothing to lose.
    fileprivate func discard() {}
}

extension Host {
    /// The world as faces may read it without entering: what the configuration and the loaded
    /// journeys fixed at start, for `daemon.hello`, the banner and the HTTP routes.
    public struct View: Sendable {
        /// The embedded server's configuration (realm, base URL, issuer, cookie, OAuth clients).
        public let server: EmbeddedAMConfig
        public let journeyNames: [String]
        /// Whether a loaded journey has a node whose outcome a scenario decides.
        public let hasScenarioNodes: Bool
        /// Every native method under its wire name, in the catalog's order.
        public let wireNames: [String]
        public let events: [String]
        public let modules: [Module]
        public let stateDirectoryPath: String?
        /// Where the HTTP face is bound (`http://127.0.0.1:8080`); nil without one.
        public let httpOrigin: String?
        /// The PingOne environment whose paths (`/{envId}/…`) the PingOne surface claims.
        public let pingOneEnvironmentId: String

        public struct Module: Sendable {
            public let name: String
            public let namespace: String
            public let methods: [String]
        }

        init(_ world: World) {
            server = world.embedded.config
            journeyNames = world.embedded.journeyNames
            hasScenarioNodes = world.embedded.hasScenarioNodes
            wireNames = world.catalog.wireNames
            events = world.catalog.events
            modules = world.catalog.modules.map {
                Module(name: $0.name, namespace: $0.namespace, methods: $0.methods.map(\.name))
            }
            stateDirectoryPath = world.stateDirectoryPath
            httpOrigin = world.configuration.httpOrigin
            pingOneEnvironmentId = world.pingOne.environmentId
        }
    }
}
