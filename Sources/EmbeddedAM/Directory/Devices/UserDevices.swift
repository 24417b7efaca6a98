import AuthBridgeCore

/// The kinds of device AM keeps on a user's profile, by the path segment of AM's device REST
/// endpoints (`…/users/{user}/devices/2fa/oath`, `…/push`, `…/webauthn`, `…/binding`).
public enum DeviceKind: String, CaseIterable, Sendable {
    case oath, push, webauthn, binding
}

/// One device of one kind on a user's profile, as AM's device storage keeps it (the OATH,
/// push, WebAuthn and device-binding profile services in ForgeRock/am-external, auth-nodes).
/// Each kind is a value type of its own file; what all share is here, so the directory saves,
/// restores, lists, renames and deletes them without knowing the kind.
public protocol DeviceProfile: Equatable, Sendable {
    static var kind: DeviceKind { get }
    /// What every kind has: its uuid, name and dates.
    var record: DeviceRecord { get set }
    /// Everything `--state-dir` keeps of it, secrets included (they never leave the state dir):
    /// `record.stateJSON` and the kind's own members.
    var stateJSON: JSONValue { get }
    init(state: StateReader) throws(StateError)
    /// What AM's device REST endpoint answers for it (`record.restJSON` and the kind's own
    /// members): no secret, ever.
    var restJSON: JSONObject { get }
}

extension DeviceProfile {
    public var uuid: String { record.uuid }
    public var deviceName: String {
        get { record.deviceName }
        set { record.deviceName = newValue }
    }
}

/// What every device on a profile has, whatever its kind.
public struct DeviceRecord: Equatable, Sendable {
    /// AM's device `uuid`: what the REST endpoints name the device by.
    public var uuid: String
    public var deviceName: String
    /// Seconds since the epoch, on the daemon's clock.
    public var createdDate: Double
    public var lastAccessDate: Double

    public init(uuid: String, deviceName: String, createdDate: Double, lastAccessDate: Double? = nil) {
        self.uuid = uuid
        self.deviceName = deviceName
        self.createdDate = createdDate
        self.lastAccessDate = lastAccessDate ?? createdDate
    }

    public var stateJSON: JSONObject {
        [
            "uuid": .string(uuid), "deviceName": .string(deviceName), "createdDate": .double(createdDate),
            "lastAccessDate": .double(lastAccessDate),
        ]
    }

    public init(state reader: StateReader) throws(StateError) {
        uuid = try reader.string("uuid")
        guard !uuid.isEmpty else { throw StateError("\(reader.path).uuid: must not be empty") }
        deviceName = try reader.string("deviceName")
        createdDate = try reader.time("createdDate")
        lastAccessDate = try reader.time("lastAccessDate")
    }

    /// The members every kind's REST form starts with, as AM's device resources name them
    /// (dates in milliseconds).
    public var restJSON: JSONObject {
        [
            "_id": .string(uuid), "uuid": .string(uuid), "deviceName": .string(deviceName),
            "createdDate": .int(Int64((createdDate * 1000).rounded(.down))),
            "lastAccessDate": .int(Int64((lastAccessDate * 1000).rounded(.down))),
        ]
    }
}

/// A user's registered devices, each kind in AM's order of registration.
public struct UserDevices: Equatable, Sendable {
    public var oath: [OathDeviceProfile] = []
    public var push: [PushDeviceProfile] = []
    public var webAuthn: [WebAuthnDeviceProfile] = []
    public var binding: [BoundDeviceProfile] = []
    /// The Device Profile Save node's profiles (`devices/profile`), oldest selection first.
    public var profiles: [SavedDeviceProfile] = []

    public init() {}

    public var isEmpty: Bool {
        oath.isEmpty && push.isEmpty && webAuthn.isEmpty && binding.isEmpty && profiles.isEmpty
    }

    /// The REST form of every device of a kind.
    public func restJSON(_ kind: DeviceKind) -> [JSONObject] {
        switch kind {
        case .oath: oath.map(\.restJSON)
        case .push: push.map(\.restJSON)
        case .webauthn: webAuthn.map(\.restJSON)
        case .binding: binding.map(\.restJSON)
        }
    }

    /// Renames the device of a kind with this uuid; false when there is none.
    public mutating func rename(_ kind: DeviceKind, uuid: String, to name: String) -> Bool {
        func rename<P: DeviceProfile>(_ list: inout [P]) -> Bool {
            guard let index = list.firstIndex(where: { $0.uuid == uuid }) else { return false }
            list[index].deviceName = name
            return true
        }
        switch kind {
        case .oath: return rename(&oath)
        case .push: return rename(&push)
        case .webauthn: return rename(&webAuthn)
        case .binding: return rename(&binding)
        }
    }

    /// Deletes the device of a kind with this uuid; false when there is none.
    public mutating func delete(_ kind: DeviceKind, uuid: String) -> Bool {
        func delete<P: DeviceProfile>(_ list: inout [P]) -> Bool {
            guard let index = list.firstIndex(where: { $0.uuid == uuid }) else { return false }
            list.remove(at: index)
            return true
        }
        switch kind {
        case .oath: return delete(&oath)
        case .push: return delete(&push)
        case .webauthn: return delete(&webAuthn)
        case .binding: return delete(&binding)
        }
    }

    // MARK: saved state

    /// Written only for kinds that have devices, so a user without any saves as before.
    var stateJSON: JSONObject {
        var json: JSONObject = [:]
        func put<P: DeviceProfile>(_ list: [P]) {
            if !list.isEmpty { json[P.kind.rawValue] = .array(list.map(\.stateJSON)) }
        }
        put(oath)
        put(push)
        put(webAuthn)
        put(binding)
        if !profiles.isEmpty { json[Self.profilesKey] = .array(profiles.map(\.stateJSON)) }
        return json
    }

    static let profilesKey = "profile"

    init(state reader: StateReader) throws(StateError) {
        for key in reader.object.members.map(\.key) where DeviceKind(rawValue: key) == nil && key != Self.profilesKey {
            throw StateError("\(reader.path).\(key): not a device kind (\(DeviceKind.allCases.map(\.rawValue)))")
        }
        func read<P: DeviceProfile>(_: P.Type) throws(StateError) -> [P] {
            var list: [P] = []
            for entry in try reader[P.kind.rawValue].optionalReaders() ?? [] {
                let device = try P(state: entry)
                guard !list.contains(where: { $0.uuid == device.uuid }) else {
                    throw StateError("\(entry.path).uuid: \(device.uuid) is already the uuid of another device")
                }
                list.append(device)
            }
            return list
        }
        oath = try read(OathDeviceProfile.self)
        push = try read(PushDeviceProfile.self)
        webAuthn = try read(WebAuthnDeviceProfile.self)
        binding = try read(BoundDeviceProfile.self)
        for entry in try reader[Self.profilesKey].optionalReaders() ?? [] {
            let profile = try SavedDeviceProfile(state: entry)
            guard !profiles.contains(where: { $0.uuid == profile.uuid }) else {
                throw StateError("\(entry.path).uuid: \(profile.uuid) is already the uuid of another profile")
            }
            profiles.append(profile)
        }
    }
}
