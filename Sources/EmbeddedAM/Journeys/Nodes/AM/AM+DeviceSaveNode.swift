import AuthBridgeCore

extension AM {
    /// AM's Device Profile Save node (ForgeRock/am-external auth-nodes `DeviceSaveNode.java`): keeps
    /// the profile the Device Profile Collector left in shared state on the user, as a device
    /// profile AM's `…/users/{user}/devices/profile` endpoint lists. A profile with the same
    /// `identifier` is replaced (keeping its `_id`); metadata and location are saved when the
    /// config says so; `lastSelectedDate` is now; the alias is the shared-state variable the
    /// config names, else the metadata's `platform.deviceName` for a profile that has none.
    /// Past `maxSavedProfiles` the least recently selected go. No profile in shared state, or no
    /// user, makes AM's node throw, so the journey fails. One outcome.
    struct DeviceSaveNode: JourneyNode {
        static let type = NodeType(name: "DeviceSaveNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(
                try DeviceSaveNode(
                    &s, names: ("variableName", "maxSavedProfiles", "saveDeviceMetadata", "saveDeviceLocation")))
        }
        .journeyFile(
            JourneyFileSyntax(name: "deviceSave", outcomeNames: ["outcome": "saved"]) {
                (s: inout Settings) throws(SettingsError) in
                [try DeviceSaveNode(&s, names: ("aliasVariable", "maxSaved", "metadata", "location"))]
            })

        var variableName: String
        var maxSavedProfiles: Int
        var saveMetadata: Bool
        var saveLocation: Bool
        var outcomes: [String] { ["outcome"] }

        private init(
            _ s: inout Settings, names: (variable: String, max: String, metadata: String, location: String)
        ) throws(SettingsError) {
            variableName = try s.string(names.variable, default: "")
            // Exports may write the count as a string ("5").
            if let text = s.raw(names.max)?.stringValue {
                guard let count = Int(text), count > 0 else {
                    throw SettingsError(reason: "\"\(names.max)\" must be a positive whole number, got \"\(text)\"")
                }
                maxSavedProfiles = count
            } else {
                maxSavedProfiles = try s.int(names.max, default: 5, in: 1...1000)
            }
            saveMetadata = try s.bool(names.metadata, default: true)
            saveLocation = try s.bool(names.location, default: true)
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard case .object(let collected)? = context.shared[DeviceProfileCollectorNode.profileKey],
                case .string(let identifier)? = collected["identifier"]
            else {
                return AMFailure.nodeError(&context, "DeviceSaveNode", "no device profile in shared state")
            }
            guard !context.username.isEmpty, context.users.find(username: context.username) != nil else {
                return AMFailure.nodeError(&context, "DeviceSaveNode", "failed to get the identity object")
            }
            let now = context.clock.now
            var uuid = context.random.uuid().lowercased()
            let chosenAlias = variableName.isEmpty ? nil : context.shared[variableName]?.stringValue
            _ = context.users.update(username: context.username) { user in
                var profiles = user.devices.profiles
                var profile: SavedDeviceProfile
                if let index = profiles.firstIndex(where: { $0.identifier == identifier }) {
                    profile = profiles.remove(at: index)
                } else {
                    while profiles.contains(where: { $0.uuid == uuid }) { uuid = context.random.uuid().lowercased() }
                    profile = SavedDeviceProfile(
                        uuid: uuid, identifier: identifier, alias: nil, metadata: nil, location: nil,
                        lastSelectedDate: now)
                }
                if saveMetadata, let metadata = collected["metadata"] { profile.metadata = metadata }
                if saveLocation, let location = collected["location"] { profile.location = location }
                profile.lastSelectedDate = now
                if let chosenAlias, !chosenAlias.isEmpty {
                    profile.alias = chosenAlias
                } else if profile.alias == nil,
                    case .string(let name)? = profile.metadata?["platform"]?["deviceName"]
                {
                    profile.alias = name
                }
                profiles.append(profile)
                while profiles.count > maxSavedProfiles,
                    let oldest = profiles.indices.min(by: {
                        profiles[$0].lastSelectedDate < profiles[$1].lastSelectedDate
                    })
                {
                    profiles.remove(at: oldest)
                }
                user.devices.profiles = profiles
            }
            return .outcome("outcome")
        }
    }
}
