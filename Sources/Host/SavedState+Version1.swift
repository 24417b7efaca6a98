import AuthBridgeCore
import StateStore

extension SavedState {
    /// Version 1: one tree, `{clock?, random?, native, server: {users: [...], sessions: [...],
    /// oauth: {signingKey, grants: [...], retiredRefreshTokens: [token], revokedAccessTokens:
    /// [token]}}}`, read as the entries version 2 holds. What is moved is checked by its owner,
    /// as any entry is; a member missing here is a part with no entries, which its owner refuses
    /// where it must (no `native`, no signing key).
    ///
    /// Users, sessions and grants were arrays: their entries are keyed by position
    /// (`server.users.0`, which names one in an error), since their owners key nothing by it. The
    /// start writes a snapshot from the owners right after loading, under the owners' own keys.
    /// Bare tokens had no time to be forgotten at: their entries hold null, which the issuer
    /// reads as "keep for a lifetime from now".
    enum Version1 {
        static func entries(_ tree: StateReader) throws(StateError) -> StateEntries {
            var entries = StateEntries()
            for key in ["clock", "random", "native"] where tree.has(key) {
                entries[[key]] = try tree.value(key)
            }
            guard tree.has("server") else { return entries }
            let server = try tree.reader("server")
            for part in ["users", "sessions"] where server.has(part) {
                for (index, value) in try server.array(part).enumerated() {
                    entries[["server", part, String(index)]] = value
                }
            }
            guard server.has("oauth") else { return entries }
            let oauth = try server.reader("oauth")
            if oauth.has("signingKey") { entries[["server", "oauth", "signingKey"]] = try oauth.value("signingKey") }
            if oauth.has("grants") {
                for (index, value) in try oauth.array("grants").enumerated() {
                    entries[["server", "oauth", "grants", String(index)]] = value
                }
            }
            for (member, part) in [("retiredRefreshTokens", "retired"), ("revokedAccessTokens", "revoked")]
            where oauth.has(member) {
                for token in try oauth.strings(member) { entries[["server", "oauth", part, token]] = .null }
            }
            return entries
        }
    }
}
