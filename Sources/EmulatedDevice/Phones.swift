import AuthBridgeCore

/// Every test user's phones: the emulated device side of the world, one state owner of the
/// Host (saved under `phones` in `--state-dir`). A user's first phone is made the first time
/// something needs it; `clone` gives the same user a second one.
public final class Phones: StateOwner {
    public let stateKey = "phones"
    private var byId: [String: Phone] = [:]
    /// Phones changed since the state was last taken, by id.
    private var changed: Set<String> = []
    private let random: RandomSource

    public init(random: RandomSource) { self.random = random }

    /// Phone ids are the owner's username, case-folded as the directory matches names.
    static func firstId(of username: String) -> String { username.lowercased() }

    /// The phone of this id, if it exists.
    public func phone(id: String) -> Phone? { byId[id] }

    /// A user's phones, the first one first.
    public func phones(of username: String) -> [Phone] {
        let first = Self.firstId(of: username)
        return byId.values.filter { $0.id == first || $0.id.hasPrefix(first + "#") }
            .sorted { ($0.id.count, $0.id) < ($1.id.count, $1.id) }
    }

    /// The phone the app under test runs on: the successor SDK's device modules (`RNPingOath`,
    /// `RNPingPush`, `RNPingFido`, `RNPingBinding`…) keep what they hold here, as one app's
    /// keychain does, whoever signs in. `emulator.*` reaches it as `phone: "app"`.
    public static let appPhoneId = "app"

    /// The app's phone, made (empty) the first time something needs it.
    @discardableResult
    public func appPhone() -> Phone { phone(of: Self.appPhoneId) }

    /// Every phone, in id order.
    public var all: [Phone] { byId.keys.sorted().map { byId[$0]! } }

    /// The user's first phone, made (empty) if the user has none yet.
    @discardableResult
    public func phone(of username: String) -> Phone {
        let id = Self.firstId(of: username)
        if let phone = byId[id] { return phone }
        let phone = Phone(id: id, owner: username, deviceToken: Self.token(random))
        byId[id] = phone
        changed.insert(id)
        return phone
    }

    /// Changes a phone in place; nil when there is no phone of this id.
    @discardableResult
    public func update<T>(id: String, _ change: (inout Phone) throws -> T) rethrows -> T? {
        guard var phone = byId[id] else { return nil }
        let result = try change(&phone)
        if phone != byId[id] {
            byId[id] = phone
            changed.insert(id)
        }
        return result
    }

    /// Changes the user's first phone (made if needed).
    public func updatePhone<T>(of username: String, _ change: (inout Phone) throws -> T) rethrows -> T {
        let id = phone(of: username).id
        return try update(id: id, change)!
    }

    /// Wipes a phone: it keeps its id and push token and holds nothing (a factory reset). False
    /// when there is no such phone.
    public func reset(id: String) -> Bool { update(id: id) { $0 = $0.wiped() } != nil }

    /// A second phone for the same user, holding copies of everything the first holds (a
    /// restored backup): the next free `owner#n`, with a push token of its own.
    public func clone(id: String) -> Phone? {
        guard let source = byId[id] else { return nil }
        let base = Self.firstId(of: source.owner)
        var number = 2
        while byId["\(base)#\(number)"] != nil { number += 1 }
        var copy = Phone(id: "\(base)#\(number)", owner: source.owner, deviceToken: Self.token(random))
        copy.oath = source.oath
        copy.push = source.push
        copy.passkeys = source.passkeys
        copy.bindingKeys = source.bindingKeys
        byId[copy.id] = copy
        changed.insert(copy.id)
        return copy
    }

    private static func token(_ random: RandomSource) -> String {
        random.bytes(32).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }

    // MARK: StateOwner

    public var stateEntries: [StateEntry] { byId.keys.sorted().map { StateEntry([$0], byId[$0]!.stateJSON) } }

    public func takeStateEdits() -> [StateEdit] {
        defer { changed.removeAll() }
        return changed.sorted().map { StateEdit([$0], byId[$0]?.stateJSON) }
    }

    public func restoreState(_ entries: [StateEntry], rollingBack: Bool) throws(StateError) {
        var restored: [String: Phone] = [:]
        for entry in entries {
            guard entry.path.count == 1 else { throw entry.unknown(under: stateKey) }
            let phone = try Phone(state: try entry.field(under: stateKey).reader())
            guard phone.id == entry.path[0] else {
                throw StateError("\(stateKey).\(entry.path[0]).id: \(phone.id) is not the phone's key")
            }
            restored[phone.id] = phone
        }
        byId = restored
        changed.removeAll()
    }
}
