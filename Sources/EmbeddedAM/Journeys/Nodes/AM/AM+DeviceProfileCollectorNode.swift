import AuthBridgeCore

extension AM {
    /// AM's Device Profile Collector: a DeviceProfileCallback asking for `deviceMetadata` and
    /// `deviceLocation`. The answer (a JSON string) is parsed and kept in shared state under
    /// `forgeRock.device.profile` (one key, dots and all, as AM names it) for the Device Match
    /// and Save nodes. An answer over `maximumSize` KB, not JSON, or without an `identifier`
    /// makes AM's node throw, so the journey fails. One outcome (`collected` in AuthBridge's
    /// JSON, which also accepts the `invalid` older files wire: never taken).
    struct DeviceProfileCollectorNode: PageChild {
        static let type = NodeType(name: "DeviceProfileCollectorNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            // Exports write `maximumSize` as a string ("3"); it is kilobytes.
            let sizeText = try s.string("maximumSize", default: "3")
            guard let kilobytes = Int(sizeText), kilobytes > 0 else {
                throw SettingsError(
                    reason: "\"maximumSize\" must be a positive whole number of kilobytes, got \"\(sizeText)\"")
            }
            return .collector(
                DeviceProfileCollectorNode(
                    metadata: try s.bool("deviceMetadata", default: false),
                    location: try s.bool("deviceLocation", default: false),
                    maximumBytes: kilobytes * 1024,
                    message: try s.localized("message")?.text ?? "Collecting profile ..."))
        }
        .journeyFile(
            JourneyFileSyntax(
                name: "deviceProfile", outcomeNames: ["outcome": "collected"], retiredOutcomes: ["invalid"]
            ) { (s: inout Settings) throws(SettingsError) in
                let node = DeviceProfileCollectorNode(
                    metadata: try s.bool("metadata", default: true), location: try s.bool("location", default: true),
                    maximumBytes: 3 * 1024,
                    message: try s.string("message", default: "Collecting profile ..."))
                return [PageNode.lone(node, stage: try s.string("stage"))]
            })

        static let profileKey = "forgeRock.device.profile"

        var metadata: Bool
        var location: Bool
        var maximumBytes: Int
        var message: String
        var callbackCount: Int { 1 }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            [.deviceProfile(metadata: metadata, location: location, message: message)]
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
            if case .success(let profile) = parse(answers[0].value) { context.shared[Self.profileKey] = profile }
        }

        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview { PageChildReview() }

        func outcome(_ answers: [CallbackAnswer], context: inout NodeContext) -> NodeAction {
            if case .failure(let why) = parse(answers[0].value) {
                return AMFailure.nodeError(&context, "DeviceProfileCollectorNode", why.text)
            }
            return .outcome("outcome")
        }

        struct Why: Error { var text: String }

        private func parse(_ value: JSONValue?) -> Result<JSONValue, Why> {
            guard case .string(let text)? = value, !text.isEmpty else {
                return .failure(Why(text: "no device profile was sent"))
            }
            guard text.utf8.count <= maximumBytes else {
                return .failure(Why(text: "the device profile is over \(maximumBytes / 1024) KB"))
            }
            guard let profile = try? JSONParser.parse(text), profile.objectValue != nil else {
                return .failure(Why(text: "the device profile is not a JSON object"))
            }
            guard case .string(let identifier)? = profile["identifier"], !identifier.isEmpty else {
                return .failure(Why(text: "the device profile has no identifier"))
            }
            return .success(profile)
        }
    }
}
