import AuthBridgeCore
import EmbeddedAM
import IdentityServer

/// The PingOne-shaped server (docs/davinci.md): one environment, its OIDC endpoints under
/// `/{envId}/as/`, and DaVinci flows as data started by `/as/authorize?response_mode=pi.flow`.
/// It keeps no users, sessions or tokens of its own: a flow checks and creates users in the
/// embedded server's directory, and a signed-on flow gets an SSO session and a code from the
/// embedded server's OAuth issuer, so tokens from either face are the same tokens.
public final class PingOne: PingOneServer {
    /// A fixed id, so a client's configuration (`https://…/{envId}/as/.well-known/…`) needs no
    /// lookup; documented in docs/davinci.md.
    public static let defaultEnvironmentId = "8e1a4b2c-7d3f-4e6a-9b5c-1f2d3e4a5b6c"
    /// The flow `/as/authorize` runs when `acr_values` names none.
    public static let defaultFlow = "sign-on"

    public let environmentId: String
    /// The origin links are built on (`_links.next.href`, discovery): the HTTP face's.
    public let origin: String
    let server: EmbeddedAM
    let clock: Clock
    let random: RandomSource
    /// The flows by name. The built-in ones are parsed on first use, not at start: parsing them
    /// was about a fifth of a daemon's start-up CPU, and most daemons never run a DaVinci flow.
    public private(set) lazy var flows: [String: DaVinciFlow] = Dictionary(
        BuiltInFlows.all.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    var interactions = InteractionBook(cap: 2_000)
    /// Outcomes a scenario chose for connector steps AuthBridge cannot run: flow → node → outcome.
    private(set) var choices: [String: [String: String]] = [:]

    public init(
        server: EmbeddedAM, origin: String, environmentId: String = PingOne.defaultEnvironmentId, clock: Clock,
        random: RandomSource
    ) {
        self.server = server
        self.origin = origin
        self.environmentId = environmentId
        self.clock = clock
        self.random = random
    }

    /// `/{envId}/as` on this origin: the issuer discovery names, the base of the OIDC endpoints.
    public var asBase: String { "\(origin)/\(environmentId)/as" }

    public var flowNames: [String] { flows.keys.sorted() }

    /// Adds (or replaces, by name) a flow; its earlier scenario choices are dropped.
    public func add(flow: DaVinciFlow) {
        flows[flow.name] = flow
        choices[flow.name] = nil
    }

    /// The outcome a connector step AuthBridge cannot run takes from now on.
    public func choose(flow: String, node: String, outcome: String) throws(FlowFormatError) {
        guard let definition = flows[flow] else {
            throw FlowFormatError(reason: "no flow \(flow) (loaded: \(flowNames.joined(separator: ", ")))")
        }
        guard let decided = definition.scenarioNodes.first(where: { $0.node == node }) else {
            let names = definition.scenarioNodes.map(\.node)
            throw FlowFormatError(
                reason:
                    "flow \(flow) has no step \(node) a scenario decides"
                    + (names.isEmpty ? "" : " (it has \(names.joined(separator: ", ")))"))
        }
        guard decided.outcomes.contains(outcome) else {
            throw FlowFormatError(
                reason:
                    "step \(node) of flow \(flow) has no outcome \(outcome) (it has \(decided.outcomes.joined(separator: ", ")))"
            )
        }
        choices[flow, default: [:]][node] = outcome
    }

    /// The outcome `choose` set for a step of a flow, if any (else the step's `default` decides).
    public func chosenOutcome(flow: String, node: String) -> String? { choices[flow]?[node] }

    public func pingOne(_ request: PingOneRequest) -> ServerReply {
        switch PingOneOperation(request, environmentId: environmentId) {
        case .authorize?: return authorize(request)
        case .continue?: return proceed(request)
        case .token?: return server.token(form: request.form)
        case .userInfo?: return userInfo(request)
        case .revoke?: return server.revoke(form: request.form)
        case .signOff?: return signOff(request)
        case .discovery?: return PingOneReplies.discovery(self)
        case .idp?: return idp(request)
        case nil: return PingOneReplies.notFound()
        }
    }
}
