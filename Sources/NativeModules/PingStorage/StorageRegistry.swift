import AuthBridgeCore
import NativeSDK

/// The RN core's storage config registries (`CoreRuntime.sessionStorageConfigRegistry`,
/// `oidcStorageConfigRegistry`, … in `core/ios/CoreRuntime.swift` and its Android twin): one per
/// kind, so an id registered as session storage is unknown to the OIDC registry. `RNPingStorage`
/// fills them; `RNPingJourney` and `RNPingOidc` resolve the ids JS hands them.
///
/// They live in memory on a device: the app's JS registers its storages again at every launch
/// and gets new ids, so they are not saved with `--state-dir`. What a storage holds is keyed by
/// where the config says it lives (the keychain account on iOS, the file and key alias on
/// Android), which is what outlives the app.
public final class StorageRegistry {
    public enum Kind: String, CaseIterable {
        case session = "Session", oidc = "Oidc", bindingUserKey = "BindingUserKey", push = "Push", oath = "Oath"
    }

    /// A registered config as `configure…Storage` returns it.
    private var configs: [Kind: [String: JSONObject]] = [:]

    public init() {}

    func register(_ config: JSONObject, kind: Kind, id: String) { configs[kind, default: [:]][id] = config }

    func config(_ kind: Kind, id: String) -> JSONObject? { configs[kind]?[id] }

    func contains(_ id: String) -> Bool { configs.values.contains { $0[id] != nil } }

    /// The `PingStores` slot of a registered session or OIDC storage, nil for an unknown id.
    func slot(_ kind: Kind, id: String) -> String? {
        guard let config = config(kind, id: id) else { return nil }
        if let account = config["account"]?.stringValue { return "keychain:\(account)" }
        let file = config["fileName"]?.stringValue ?? ""
        let alias = config["keyAlias"]?.stringValue ?? ""
        return "datastore:\(file)/\(alias)"
    }
}
