import AuthBridgeCore

extension AM {
    /// AM's Provision Dynamic Account (`ForgeRock/am-external`
    /// idm-integration-nodes/…/ProvisionDynamicAccountNode.java, with openam-auth-common's
    /// `DefaultAccountProvider`): creates the account a social login found none for, then makes it
    /// the journey's user (shared `username`).
    ///
    /// Its attributes are shared `objectAttributes` when a node collected some, else
    /// `userInfo.attributes` (name → list of values, as the social nodes write it; `userInfo`
    /// must also carry `userNames`). The password is the transient `password` (Create Password),
    /// else 20 random bytes nobody learns. The username is the first `uid` value, else a random
    /// UUID, as `DefaultAccountProvider` derives it. A username already taken is AM's "Unable to
    /// create user" node error: the journey fails and the existing account is left as it was.
    struct ProvisionDynamicAccountNode: JourneyNode {
        static let type = NodeType(name: "ProvisionDynamicAccountNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let provider = try s.string("accountProviderClass", default: defaultProvider)
            guard provider == defaultProvider else {
                throw SettingsError(
                    reason:
                        "\"accountProviderClass\" \(provider) is custom Java AuthBridge cannot run; only \(defaultProvider) is supported"
                )
            }
            return .node(ProvisionDynamicAccountNode())
        }

        static let defaultProvider = "org.forgerock.openam.authentication.modules.common.mapping.DefaultAccountProvider"
        /// What AM sets itself and the directory keeps apart (the hash, the lock): not attributes.
        private static let managed: Set<String> = ["userPassword", "inetuserstatus"]

        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            let attributes: [String: [JSONValue]]
            switch self.attributes(context) {
            case .success(let found): attributes = found
            case .failure(let why): return AMFailure.nodeError(&context, "ProvisionDynamicAccountNode", why.text)
            }
            let username = attributes["uid"]?.first.map(JourneyValues.text) ?? context.random.uuid().lowercased()
            var password = JourneyValues.text(context.transient["password"])
            if password.isEmpty { password = Base64URL.encode(context.random.bytes(20)) }
            var profile = JSONObject()
            for (name, values) in attributes.sorted(by: { $0.key < $1.key }) where !Self.managed.contains(name) {
                profile[name] = values.count == 1 ? values[0] : .array(values)
            }
            do {
                let user = try context.users.add(username: username, password: password, attributes: profile)
                context.shared["username"] = .string(user.username)
                return .outcome("outcome")
            } catch {
                let why =
                    switch error {
                    case .duplicate: "an account of that name exists"
                    case .emptyUsername: "the name is empty"
                    case .emptyPassword: "the password is empty"
                    }
                return AMFailure.nodeError(
                    &context, "ProvisionDynamicAccountNode", "Unable to create user \(username): \(why)")
            }
        }

        private struct Missing: Error { var text: String }

        private func attributes(_ context: NodeContext) -> Result<[String: [JSONValue]], Missing> {
            if case .object(let collected)? = context.value(path: "objectAttributes"), collected.count > 0 {
                return .success(Dictionary(uniqueKeysWithValues: collected.members.map { ($0.key, [$0.value]) }))
            }
            guard case .object(let userInfo)? = context.shared["userInfo"] else {
                return .failure(
                    Missing(
                        text:
                            "No user information has been found in the shared state. You must call a node that sets this information first"
                    ))
            }
            guard userInfo["userNames"] != nil else {
                return .failure(
                    Missing(
                        text:
                            "The user information doesn't contain the userNames. You must call a node that sets this information first"
                    ))
            }
            var lists: [String: [JSONValue]] = [:]
            if case .object(let attributes)? = userInfo["attributes"] {
                for member in attributes.members {
                    guard case .array(let values) = member.value, values.allSatisfy({ $0.stringValue != nil }) else {
                        return .failure(
                            Missing(
                                text: "userInfo.attributes.\(member.key) must be a list of strings, as AM writes it"))
                    }
                    var seen: Set<String> = []
                    lists[member.key] = values.filter { seen.insert($0.stringValue ?? "").inserted }
                }
            }
            return .success(lists)
        }
    }
}
