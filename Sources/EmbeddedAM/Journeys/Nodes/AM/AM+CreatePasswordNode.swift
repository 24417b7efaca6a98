import AuthBridgeCore

extension AM {
    /// AM's Create Password (`ForgeRock/am-external` idm-integration-nodes/…/CreatePasswordNode.java
    /// and its `.properties`): two PasswordCallbacks, "Create a password" and "Confirm password".
    /// A blank password sends them again as they were; one shorter than `minPasswordLength` or
    /// not confirmed sends them again with a trailing error TextOutput (messageType "2") saying
    /// why. A good one goes to transient state as `password`, never to shared state.
    struct CreatePasswordNode: JourneyNode {
        static let type = NodeType(name: "CreatePasswordNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(CreatePasswordNode(minimumLength: try s.int("minPasswordLength", default: 8, in: 0...1024)))
        }

        var minimumLength: Int
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let answers = context.answers, answers.count >= 2 else { return .send(step(error: nil)) }
            let password = JourneyValues.text(answers[0].value)
            let confirmation = JourneyValues.text(answers[1].value)
            // Java's isBlank, and String.length(), which counts UTF-16 units.
            if password.allSatisfy(\.isWhitespace) { return .send(step(error: nil)) }
            if password.utf16.count < minimumLength {
                return .send(step(error: "Password must be a minimum of \(minimumLength) characters"))
            }
            if password != confirmation { return .send(step(error: "Passwords do not match")) }
            context.transient["password"] = .string(password)
            return .outcome("outcome")
        }

        private func step(error: String?) -> Step {
            var callbacks: [Callback] = [.password(prompt: "Create a password"), .password(prompt: "Confirm password")]
            if let error { callbacks.append(.textOutput(message: error, messageType: "2")) }
            return Step(callbacks: callbacks)
        }
    }
}
