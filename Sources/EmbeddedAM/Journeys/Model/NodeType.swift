import AuthBridgeCore

/// AM's own node types, as exports name them (`_type._id`). The types live in `Nodes/AM/`,
/// each in a file of its own, as `AM.<TypeName>`; the nodes only AuthBridge has live in
/// `Nodes/AuthBridge/`, as `AuthBridge.<TypeName>`.
enum AM {
    /// AM's static end nodes: every tree shares these ids.
    static let successNodeId = "70e691a5-1e33-4ac3-a356-e7b6d60d92e0"
    static let failureNodeId = "e301438c-0bd0-429c-ab0c-66126501069a"
}

/// The node types AM does not have, which only AuthBridge's journey JSON can name.
enum AuthBridge {}

/// One node type of the catalog (`NodeRegistry.types`), in both syntaxes: how an AM export's
/// config builds it (`build`), and how AuthBridge's journey JSON names and builds it
/// (`journeyFile`). Either may be missing: a node only exports use, or one AM has no config for
/// (its static Success and Failure) or does not have at all (`AuthBridge.*`).
struct NodeType: Sendable {
    /// AM's `_type._id` (`RetryLimitDecisionNode`), or `AuthBridge.<Name>` for AuthBridge's own.
    var name: String
    /// Whether the node may stop to ask the client (a loop of nodes that never do is refused).
    var asksForInput = true
    /// Builds it from an export's config. Configs carry much that AuthBridge does not use (`_rev`,
    /// coordinates, settings of AM's own services), so unread keys are not mistakes here, as they
    /// are in AuthBridge's JSON; a key of the wrong type still is.
    var build: (@Sendable (inout Settings, AMNodeSource) throws(SettingsError) -> AMBuilt)?
    var journeyFile: JourneyFileSyntax?

    init(
        name: String, asksForInput: Bool = true,
        build: @escaping @Sendable (inout Settings, AMNodeSource) throws(SettingsError) -> AMBuilt
    ) {
        self.name = name
        self.asksForInput = asksForInput
        self.build = build
    }

    /// A type only AuthBridge's JSON names (AM's static ends, AuthBridge's own nodes).
    init(name: String, journeyFile: JourneyFileSyntax) {
        self.name = name
        self.journeyFile = journeyFile
    }

    /// The same type, also written in AuthBridge's JSON.
    func journeyFile(_ syntax: JourneyFileSyntax) -> NodeType {
        var type = self
        type.journeyFile = syntax
        return type
    }
}

/// How AuthBridge's journey JSON writes a node type: its name there (`retryLimit`), the names
/// its outcomes have there, and how its settings build the node. The JSON is a second syntax
/// for the same nodes, not a second implementation: the settings are translated into the AM
/// node's, and the outcomes renamed.
struct JourneyFileSyntax: Sendable {
    var name: String
    /// The file's name for an outcome, by the node's outcome id (`Retry` → `retry`); an
    /// outcome not listed has its id as its name.
    var outcomeNames: [String: String] = [:]
    /// Outcomes older files wire that the AM node does not have: accepted, never taken.
    var retiredOutcomes: Set<String> = []
    /// The node, or a chain of nodes of one outcome each that the file writes as one node (the
    /// HOTP generator and its sender). The last one's outcomes are the file's.
    var build: @Sendable (inout Settings) throws(SettingsError) -> [any JourneyNode]
}

/// What a type builds: a node of the tree, or a collector, which stands alone as an
/// interactive node or sits inside a Page node.
enum AMBuilt {
    case node(any JourneyNode)
    case collector(any PageChild)
}

/// What a node's config may refer to beyond its own settings.
struct AMNodeSource {
    var tree: String
    var nodeId: String
    var displayName: String?
    /// The outcomes the export lists for the node (`_outcomes`), for nodes a scenario decides.
    var exportedOutcomes: [String]
    /// The name of a script the export carries, by id (nil when the export omits scripts).
    var scriptName: (String) -> String?
    /// Builds a Page node's child from its config in `innerNodes`.
    var child: (_ id: String, _ type: String) throws(SettingsError) -> any PageChild
    /// The enabled providers of the export's `socialIdentityProviders`, by name.
    var socialProviders: [AMSocialProvider]
    /// Whether node types AuthBridge does not know are let in as scenario-decided nodes.
    var unknownAsScenario: Bool
}
