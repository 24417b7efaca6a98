import AuthBridgeCore

/// AM's Create Object: creates the user from `username`, the password and `objectAttributes`.
/// `created`, or `failed` when the directory refuses (a taken username).
struct CreateObjectNode: JourneyNode {
    static let type = NodeType(name: "createObject") { (_: inout Settings) throws(SettingsError) in CreateObjectNode() }

    var outcomes: [String] { ["created", "failed"] }

    func process(_ context: inout NodeContext) -> NodeAction {
        var attributes = context.shared["objectAttributes"]?.objectValue ?? [:]
        if case .array(let answers)? = attributes["kbaInfo"] {
            attributes["kbaInfo"] = .array(answers.map { KbaAnswers.hashed($0, random: context.random) })
        }
        do {
            try context.users.add(username: context.username, password: context.password, attributes: attributes)
            return .outcome("created")
        } catch {
            return .outcome("failed")
        }
    }
}
