import AuthBridgeCore
import EmbeddedAM

/// What a connector step did: an outcome leading on, an error that returns the client to its
/// form, or the flow's end.
enum ConnectorResult: Equatable, Sendable {
    case outcome(String)
    case error(DaVinciError)
    /// PingOne Authentication's `returnSuccessResponseRedirect`: the user is signed on.
    case complete
    /// The flow ends without a user (`{status: "FAILED", error}` in a 200, as PingOne answers a
    /// flow that failed; ping-ios-sdk `Transform.swift`).
    case failed(code: String, message: String)
}

/// A step's view of the world: the shared directory and outbox, the interaction it runs in.
struct ConnectorStep {
    let server: EmbeddedAM
    let clock: Clock
    let random: RandomSource
    var interaction: Interaction
    let settings: JSONObject
    let connectorId: String
    let capabilityName: String

    /// A setting naming a field (`"username": "email"`), else the field of the same name.
    func field(_ name: String) -> String { settings[name]?.stringValue ?? name }
    func value(_ name: String) -> String? { interaction.values[field(name)]?.stringValue }

    func error(_ code: String, _ message: String, details: [ErrorDetail]) -> ConnectorResult {
        .error(
            DaVinciError(
                connectorId: connectorId, capabilityName: capabilityName, code: code, message: message,
                details: details))
    }

    /// PingOne's `passwordPolicyViolation` for a new password that breaks the policy, naming the
    /// form's password field; nil when it keeps it.
    func policyViolation(_ password: String) -> ConnectorResult? {
        PasswordPolicy.standard.detail(password, target: field("password")).map {
            error("passwordPolicyViolation", $0.message, details: [$0])
        }
    }
}

/// One capability of a PingOne connector AuthBridge runs itself (a `NodeType` of DaVinci). A new
/// one is a file here and a line in `ConnectorRegistry.capabilities`; any other a flow names is
/// decided by the scenario.
protocol ConnectorCapability: Sendable {
    var connectorId: String { get }
    var name: String { get }
    var outcomes: [String] { get }
    func run(_ step: inout ConnectorStep) -> ConnectorResult
}

enum ConnectorRegistry {
    static let capabilities: [any ConnectorCapability] = [
        CheckPassword(), FindUser(), CreateUser(), SendOneTimeCode(), CheckOneTimeCode(), ResetPassword(),
        CreateDevice(), ActivateDevice(),
        ReturnSuccess(), FailFlow(),
    ]

    static func capability(connector: String, capability: String) -> (any ConnectorCapability)? {
        capabilities.first { $0.connectorId == connector && $0.name == capability }
    }
}
