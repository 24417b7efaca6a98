import AuthBridgeCore

extension AM {
    /// AM's Amster JWT Decision (`ForgeRock/am-external` auth-nodes/…/amster/AmsterJwtDecisionNode.java):
    /// sends a HiddenValueCallback `jwt` whose value is a fresh nonce (a UUID, kept in the node's
    /// state); the client returns a JWT whose header `kid` names a key of `authorizedKeys` (the
    /// key's base64 blob), signed by it (RS256 for `ssh-rsa`, ES256 for `ecdsa-sha2-nistp256`),
    /// with the nonce in its `nonce` claim and, where the key's `subject` option says so, an allowed
    /// `sub`. Then `true`, and `sub` becomes the journey's `username`. Anything else is `false`; a
    /// token that does not parse also forgets the nonce, as AM does.
    ///
    /// `authorizedKeys` is, as in AM, the path of an OpenSSH authorized_keys file, read when the
    /// journey loads (a file that cannot be read leaves the node without keys, logged; AM logs and
    /// answers `false` the same way). AuthBridge also takes the file's lines themselves as the value
    /// (a value whose first line starts with `ssh-rsa`, `ecdsa-sha2-` or options), so an export can
    /// carry its test key.
    struct AmsterJwtDecisionNode: JourneyNode {
        static let type = NodeType(name: "AmsterJwtDecisionNode") {
            (s: inout Settings, source: AMNodeSource) throws(SettingsError) in
            let value = try s.requiredString("authorizedKeys")
            let keys: AuthorizedKeys
            if value.hasPrefix("/") || value.hasPrefix(".") || !value.contains(" ") {
                switch FileBytes.read(path: value, limit: 1 << 20) {
                case .success(let bytes): keys = AuthorizedKeys(text: String(decoding: bytes, as: UTF8.self))
                case .failure(let failure):
                    logError(
                        "journey \(source.tree), node \(source.nodeId) (AmsterJwtDecisionNode): cannot read the authorized keys file \(value): \(failure.text); the node has no keys and answers false, as AM does"
                    )
                    keys = AuthorizedKeys(text: "")
                }
            } else {
                keys = AuthorizedKeys(text: value)
            }
            for reason in keys.skipped {
                logError(
                    "journey \(source.tree), node \(source.nodeId) (AmsterJwtDecisionNode): key skipped, \(reason)")
            }
            return .node(AmsterJwtDecisionNode(keys: keys.keys))
        }

        static let nonceKey = "amster.nonce"

        var keys: [AuthorizedKeys.Key]
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let nonce = context.nodeState[Self.nonceKey]?.stringValue else {
                let nonce = context.random.uuid().lowercased()
                context.nodeState[Self.nonceKey] = .string(nonce)
                return .send(Step(callbacks: [.hiddenValue(id: "jwt", value: nonce)]))
            }
            guard let answers = context.answers, let answer = answers.first else {
                return refused("jwt", "no JWT came back", &context)
            }
            guard let token = try? JWS.parse(JourneyValues.text(answer.value)),
                case .object(let claims)? = try? JSONParser.parse(token.payload)
            else {
                context.nodeState[Self.nonceKey] = nil
                return refused("jwt", "the answer is not a JWT", &context)
            }
            guard claims["nonce"]?.stringValue == nonce else {
                return refused("nonce", "the JWT's nonce is not the one sent", &context)
            }
            guard let subject = claims["sub"]?.stringValue else {
                return refused("sub", "the JWT has no sub", &context)
            }
            guard let kid = token.header["kid"]?.stringValue else {
                return refused("kid", "the JWT has no kid", &context)
            }
            let candidates = keys.filter { $0.id == kid && $0.allows(subject: subject) }
            guard !candidates.isEmpty else {
                return refused("kid", "no authorized key \(kid) allows the subject \(subject)", &context)
            }
            for key in candidates where (try? token.verify(allowed: [.es256, .rs256], key: key.key)) != nil {
                context.shared["username"] = .string(subject)
                return .outcome("true")
            }
            return refused("signature", "the JWT's signature is not by the authorized key \(kid)", &context)
        }

        private func refused(_ check: String, _ why: String, _ context: inout NodeContext) -> NodeAction {
            context.failureReason = JourneyFailure.Reason("amster_jwt_refused", why, ["check": .string(check)])
            return .outcome("false")
        }
    }
}
