import AuthBridgeCore

/// A device profile the Device Profile Save node kept on the user (ForgeRock/am-external auth-nodes
/// `DeviceSaveNode.java`, stored through AM's `DeviceProfilesDao`): the collector's `identifier`,
/// its `metadata` and `location` when the node saves them, an `alias` (the node's shared-state
/// variable, else the metadata's `platform.deviceName`), and when it was last selected. AM's REST
/// endpoint `…/users/{user}/devices/profile` lists, renames (`alias`) and deletes them by `_id`.
/// It is not one of the 2FA kinds (`DeviceKind`): no recovery codes, no `2fa/` path.
public struct SavedDeviceProfile: Equatable, Sendable {
    /// The profile's `_id` on AM's REST endpoint.
    public var uuid: String
    public var identifier: String
    public var alias: String?
    public var metadata: JSONValue?
    public var location: JSONValue?
    /// Seconds since the epoch, on the daemon's clock (AM's REST form is in milliseconds).
    public var lastSelectedDate: Double

    public init(
        uuid: String, identifier: String, alias: String?, metadata: JSONValue?, location: JSONValue?,
        lastSelectedDate: Double
    ) {
        self.uuid = uuid
        self.identifier = identifier
        self.alias = alias
        self.metadata = metadata
        self.location = location
        self.lastSelectedDate = lastSelectedDate
    }

    /// AM's REST form: `_id`, `identifier`, `alias`, `metadata`, `location`, `lastSelectedDate`
    /// (milliseconds); what the node did not save is left out.
    public var restJSON: JSONObject {
        var json: JSONObject = [
            "_id": .string(uuid), "identifier": .string(identifier),
            "lastSelectedDate": .int(Int64((lastSelectedDate * 1000).rounded(.down))),
        ]
        if let alias { json["alias"] = .string(alias) }
        if let metadata { json["metadata"] = metadata }
        if let location { json["location"] = location }
        return json
    }

    var stateJSON: JSONValue {
        var json: JSONObject = [
            "uuid": .string(uuid), "identifier": .string(identifier), "lastSelectedDate": .double(lastSelectedDate),
        ]
        if let alias { json["alias"] = .string(alias) }
        if let metadata { json["metadata"] = metadata }
        if let location { json["location"] = location }
        return .object(json)
    }

    init(state reader: StateReader) throws(StateError) {
        uuid = try reader.string("uuid")
        guard !uuid.isEmpty else { throw StateError("\(reader.path).uuid: must not be empty") }
        identifier = try reader.string("identifier")
        alias = try reader.optionalString("alias")
        metadata = reader.object["metadata"]
        location = reader.object["location"]
        lastSelectedDate = try reader.time("lastSelectedDate")
    }
}
