import AuthBridgeCore

/// AM's Device Profile Collector: sends a DeviceProfileCallback. `collected` when the answer is
/// a profile with what was asked for, else `invalid`.
struct DeviceProfileNode: JourneyNode {
    static let type = NodeType(name: "deviceProfile") { (s: inout Settings) throws(SettingsError) in try DeviceProfileNode(&s) }

    var metadata: Bool
    var location: Bool
    var message: String
    var stage: String?

    var outcomes: [String] { ["collected", "invalid"] }

    init(_ s: inout Settings) throws(SettingsError) {
        metadata = try s.bool("metadata", default: true)
        location = try s.bool("location", default: true)
        message = try s.string("message", default: "Collecting profile ...")
        stage = try s.string("stage")
    }

    func process(_ context: inout NodeContext) -> NodeAction {
        guard let answers = context.answers else {
            return .send(Step(stage: stage, callbacks: [.deviceProfile(metadata: metadata, location: location, message: message)]))
        }
        // What the client sent is kept as sent, and replaced by the parsed profile when it is one.
        if let value = answers[0].value { context.shared.set(path: "deviceProfile", to: value) }
        guard let profile = profile(answers[0].value) else { return .outcome("invalid") }
        context.shared.set(path: "deviceProfile", to: profile)
        return .outcome("collected")
    }

    /// The profile arrives as a JSON *string* (`JSON.stringify` of `{identifier, metadata,
    /// location}`); it needs an identifier, and the parts the node asked for.
    private func profile(_ value: JSONValue?) -> JSONValue? {
        guard case .string(let text)? = value, let profile = try? JSONParser.parse(text),
            case .string(let identifier)? = profile["identifier"], !identifier.isEmpty
        else { return nil }
        if metadata, profile["metadata"]?.objectValue == nil { return nil }
        if location, profile["location"]?.objectValue == nil { return nil }
        return profile
    }
}
