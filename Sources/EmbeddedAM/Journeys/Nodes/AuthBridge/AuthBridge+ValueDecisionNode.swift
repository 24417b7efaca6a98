import AuthBridgeCore

extension AuthBridge {
    /// AuthBridge's own, not AM's: compares a value the journey holds, `true` or `false`. Without
    /// `equals`, true when the value is present and not empty, false or null. Stands in for the
    /// Scripted Decision checks of real trees in AuthBridge's JSON (`valueDecision`).
    struct ValueDecisionNode: JourneyNode {
        static let type = NodeType(
            name: "AuthBridge.ValueDecisionNode",
            journeyFile: JourneyFileSyntax(name: "valueDecision") { (s: inout Settings) throws(SettingsError) in
                [try ValueDecisionNode(&s)]
            })

        /// Dotted path (the setting is called `sharedState`; the password is found in transient state).
        var path: String
        var equals: JSONValue?

        var outcomes: [String] { ["true", "false"] }

        init(_ s: inout Settings) throws(SettingsError) {
            path = try s.requiredString("sharedState")
            try Settings.checkPath(path, key: "sharedState", separator: ".")
            equals = s.raw("equals")
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            let value = context.value(path: path)
            guard let expected = equals else {
                switch value {
                case nil, .null?, .bool(false)?, .string("")?: return .outcome("false")
                default: return .outcome("true")
                }
            }
            return .outcome(Self.same(value, expected) ? "true" : "false")
        }

        /// Equality as a journey author means it: numbers by value (`1` equals `1.0`).
        private static func same(_ value: JSONValue?, _ expected: JSONValue) -> Bool {
            if let a = value?.doubleValue, let b = expected.doubleValue { return a == b }
            return value == expected
        }
    }
}
