import AuthBridgeCore

/// AM's Create Object: creates the user from `username`, the password and `objectAttributes`.
/// `created`, or `failed` when the directory refuses (a taken username).
struct CreateObjectNode: JourneyNode {
    static let type = NodeType(name: "createObject") { (_: inout Settings) throws(SettingsError) in CreateObjectNode() }

    var outcomes: [String] { ["created", "failed"] }

    func process(_ context: inout NodeContext) -> NodeAction {
        var attributes = context.shared["objectAttributes"]?.objectValue ?? [:]
        if case .array(let answers)? = attributes["kbaInfo"] {
            attributes["kbaInfo"] = .array(answers.map { hashedAnswer($0, random: context.random) })
        }
        do {
            try context.users.add(username: context.username, password: context.password, attributes: attributes)
            return .outcome("created")
        } catch {
            return .outcome("failed")
        }
    }

    /// IDM keeps KBA answers as salted hashes, never in clear; so does the embedded directory.
    /// Answers are compared case-insensitively, hence the lowercasing before hashing.
    private func hashedAnswer(_ entry: JSONValue, random: RandomSource) -> JSONValue {
        let question = JourneyValues.text(entry["question"])
        let answer = JourneyValues.text(entry["answer"]).lowercased()
        let salt = random.bytes(16)
        let digest = SHA256.hash(salt + Array(answer.utf8))
        return [
            "customQuestion": .string(question),
            "answer": ["$crypto": [
                "type": "salted-hash",
                "value": ["algorithm": "SHA-256", "salt": .string(Base64URL.encode(salt)), "data": .string(Base64URL.encode(digest))],
            ]],
        ]
    }
}
