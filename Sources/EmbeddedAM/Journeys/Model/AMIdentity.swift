import AuthBridgeCore

/// How AM's IDM-backed nodes find "the user" of a journey: by their `identityAttribute`, read
/// from `objectAttributes` in shared state, or for `userName`, the journey's `username`
/// (ForgeRock/am-external `SharedStateConstants.java`). The embedded directory is the realm's `managed/<realm>_user`.
enum AMIdentity {
    /// Transient state's value first, then shared state's (`TreeContext.getState`): the Social
    /// Provider Handler keeps the mapped profile in transient `objectAttributes`.
    static func value(_ context: NodeContext, attribute: String) -> String {
        let path = attribute.replacingSlashes
        let attributeValue = JourneyValues.text(
            context.transient["objectAttributes"]?.objectValue?.value(path: path)
                ?? context.shared["objectAttributes"]?.objectValue?.value(path: path))
        if attribute == "userName", attributeValue.isEmpty { return context.username }
        return attributeValue
    }

    static func user(_ context: NodeContext, attribute: String) -> DirectoryUser? {
        context.users.find(attribute: attribute, value: value(context, attribute: attribute))
    }

    /// `objectAttributes` as the journey holds them: shared state, with what transient state
    /// keeps (the new password, KBA answers) laid over it.
    static func objectAttributes(_ context: NodeContext) -> JSONObject {
        var merged = context.shared["objectAttributes"]?.objectValue ?? [:]
        for member in context.transient["objectAttributes"]?.objectValue?.members ?? [] {
            merged[member.key] = member.value
        }
        return merged
    }

    /// AM's universal id of a user (what sessions report and device-binding callbacks send as
    /// `userId`): `id=<username>,ou=user,o=<realm>,ou=services,ou=am-config`.
    static func universalId(_ username: String, realm: String) -> String {
        "id=\(username),ou=user,o=\(realm),ou=services,ou=am-config"
    }

    /// The username a universal id names (a plain username names itself), as AM's identity
    /// lookup accepts either.
    static func username(universalId: String) -> String {
        guard universalId.hasPrefix("id="), let comma = universalId.firstIndex(of: ",") else { return universalId }
        return String(universalId[universalId.index(universalId.startIndex, offsetBy: 3)..<comma])
    }
}
