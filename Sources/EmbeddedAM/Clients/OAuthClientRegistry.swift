import AuthBridgeCore
import IdentityServer

/// The realm's OAuth clients, one registry the issuer and the HTTP routes both read: the
/// configured ones (`EmbeddedAMConfig.clients`, with `--redirect-uri` and friends applied), and
/// over them the clients an import registered (docs/seed.md). An imported client with a
/// configured client's id replaces it. Only the imported ones are saved (`server.clients`): the
/// configured ones come from the flags of each start.
public final class OAuthClientRegistry {
    public typealias Client = EmbeddedAMConfig.OAuthClient

    private let configured: [Client]
    private var imported: [String: Client] = [:]
    private var changed: Set<String> = []
    var tracksChanges = false

    init(configured: [Client]) { self.configured = configured }

    /// The configured clients in their order (replaced where an import did), then the imported
    /// ones by id.
    public var all: [Client] {
        configured.map { imported[$0.clientId] ?? $0 }
            + imported.keys.sorted().filter { id in !configured.contains { $0.clientId == id } }.compactMap {
                imported[$0]
            }
    }

    public func find(_ clientId: String?) -> Client? {
        guard let clientId else { return nil }
        return imported[clientId] ?? configured.first { $0.clientId == clientId }
    }

    /// Registers a client, replacing one of the same id.
    public func put(_ client: Client) {
        imported[client.clientId] = client
        if tracksChanges { changed.insert(client.clientId) }
    }

    // MARK: saved state

    var stateEntries: [StateEntry] { imported.keys.sorted().map { StateEntry([$0], Self.stateJSON(imported[$0]!)) } }

    func takeStateEdits() -> [StateEdit] {
        defer { changed.removeAll() }
        return changed.sorted().map { StateEdit([$0], imported[$0].map(Self.stateJSON)) }
    }

    static func stateJSON(_ client: Client) -> JSONValue {
        [
            "clientId": .string(client.clientId), "redirectUris": .array(client.redirectUris.map { .string($0) }),
            "postLogoutRedirectUris": .array(client.postLogoutRedirectUris.map { .string($0) }),
            "scopes": .array(client.scopes.map { .string($0) }),
            "idTokenSigningAlgorithm": .string(client.idTokenSigningAlgorithm.rawValue),
        ]
    }

    func restore(_ readers: [StateReader]) throws(StateError) {
        var restored: [String: Client] = [:]
        for reader in readers {
            let client = Client(
                clientId: try reader.string("clientId"), redirectUris: try reader.strings("redirectUris"),
                postLogoutRedirectUris: try reader.strings("postLogoutRedirectUris"),
                scopes: try reader.strings("scopes"),
                idTokenSigningAlgorithm: try Self.algorithm(reader))
            restored[client.clientId] = client
        }
        imported = restored
        changed.removeAll()
    }

    /// Saved before clients had one: RS256, AM's default.
    private static func algorithm(_ reader: StateReader) throws(StateError) -> TokenSigningAlgorithm {
        let field = reader["idTokenSigningAlgorithm"]
        guard let name = try field.optionalString() else { return .rs256 }
        guard let algorithm = TokenSigningAlgorithm(rawValue: name) else {
            throw field.fail(.string, .value(.string(name)))
        }
        return algorithm
    }
}
