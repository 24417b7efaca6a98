import AuthBridgeCore
import IdentityServer
import Synchronization

/// One signing key of the issuer: its algorithm, the generation it belongs to (each rotation
/// starts a new one) and its `kid`.
struct IssuerKey: Sendable {
    let algorithm: TokenSigningAlgorithm
    let generation: Int
    let kid: String
    let signingKey: JWS.SigningKey
    let verificationKey: JWS.VerificationKey

    /// The public JWK as a `jwk_uri` lists it (RFC 7517 §4: `use`, `alg`, `kid`).
    var jwk: JSONObject {
        let publicKey: PublicKey
        switch signingKey {
        case .p256(let key): publicKey = .p256(key.publicKey)
        case .rsa(let key, _), .rsaPSS(let key): publicKey = .rsa(key.publicKey)
        case .hmac: return [:]
        }
        var json = JWK(key: publicKey, keyID: kid).json
        json["use"] = "sig"
        json["alg"] = .string(algorithm.rawValue)
        return json
    }
}

/// The issuer's keys, all derived from one 32-byte seed: the key of (algorithm, generation) is
/// drawn from a stream of its own, SHA-256(seed ‖ algorithm ‖ generation ‖ counter), so a seeded
/// daemon makes the same keys every run and drawing them moves no other seeded value. A key is
/// made when first needed (a token to sign, a JWKS to publish), never at start: an RSA key
/// pair costs far more than a daemon's start. Made keys are kept process-wide by what they
/// derive from, so a test process starting many seeded daemons pays for each key once.
///
/// Rotation starts a new generation; the keys of the old one stay published, and keep
/// verifying, until every token they signed has expired on the daemon's clock.
struct SigningKeys {
    /// A key of an earlier generation, published until `until`.
    struct Retired: Equatable {
        var algorithm: TokenSigningAlgorithm
        var generation: Int
        var until: Double
    }

    let seed: [UInt8]
    /// A state directory written when tokens were HS256 held the seed as the HMAC key: the
    /// tokens it signed are still taken until this time (their longest life from the load),
    /// then never again.
    private(set) var legacyHMACUntil: Double?
    private(set) var generation = 0
    private(set) var retired: [Retired] = []
    private var made: [Slot: IssuerKey] = [:]

    private struct Slot: Hashable {
        var algorithm: TokenSigningAlgorithm
        var generation: Int
    }

    init(seed: [UInt8], generation: Int = 0, retired: [Retired] = [], legacyHMACUntil: Double? = nil) {
        self.seed = seed
        self.legacyHMACUntil = legacyHMACUntil
        self.generation = generation
        self.retired = retired
    }

    /// The current key for `algorithm`, made now if it was not yet.
    mutating func current(_ algorithm: TokenSigningAlgorithm) -> IssuerKey {
        key(Slot(algorithm: algorithm, generation: generation))
    }

    private mutating func key(_ slot: Slot) -> IssuerKey {
        if let key = made[slot] { return key }
        let key = IssuerKeyCache.key(seed: seed, algorithm: slot.algorithm, generation: slot.generation)
        made[slot] = key
        return key
    }

    /// The `kid` of a slot, without making its key: derived from the seed as the key is.
    func kid(_ algorithm: TokenSigningAlgorithm, generation: Int) -> String {
        IssuerKeyCache.kid(seed: seed, algorithm: algorithm, generation: generation)
    }

    /// Makes a new generation current. The current keys of `algorithms` retire, published until
    /// `until` (when the last token they can have signed expires).
    mutating func rotate(algorithms: Set<TokenSigningAlgorithm>, until: Double) {
        for algorithm in TokenSigningAlgorithm.allCases where algorithms.contains(algorithm) {
            retired.append(Retired(algorithm: algorithm, generation: generation, until: until))
        }
        generation += 1
    }

    /// Forgets the retired keys whose tokens have all expired; true if any went.
    mutating func prune(now: Double) -> Bool {
        let before = retired.count
        retired.removeAll { $0.until <= now }
        var changed = false
        if let until = legacyHMACUntil, until <= now {
            legacyHMACUntil = nil
            changed = true
        }
        let live = Set(retired.map { Slot(algorithm: $0.algorithm, generation: $0.generation) })
        made = made.filter { $0.key.generation == generation || live.contains($0.key) }
        return changed || retired.count < before
    }

    /// What `jwk_uri` lists: the current keys of `algorithms`, then the retired keys still live.
    mutating func published(algorithms: Set<TokenSigningAlgorithm>) -> [IssuerKey] {
        var keys: [IssuerKey] = []
        for algorithm in TokenSigningAlgorithm.allCases where algorithms.contains(algorithm) {
            keys.append(current(algorithm))
        }
        for old in retired { keys.append(key(Slot(algorithm: old.algorithm, generation: old.generation))) }
        return keys
    }

    /// The key a token's `kid` names, current or retired-but-live; nil for any other.
    mutating func verificationKey(kid: String) -> IssuerKey? {
        for algorithm in TokenSigningAlgorithm.allCases where self.kid(algorithm, generation: generation) == kid {
            return current(algorithm)
        }
        for old in retired where self.kid(old.algorithm, generation: old.generation) == kid {
            return key(Slot(algorithm: old.algorithm, generation: old.generation))
        }
        return nil
    }
}

/// Keys already made in this process, by what they derive from: a test process that starts
/// many seeded daemons makes each key once. Bounded: past `capacity` it starts again (a process
/// of unseeded daemons makes a new seed each time).
enum IssuerKeyCache {
    private struct Entry: Hashable {
        var seed: [UInt8]
        var algorithm: TokenSigningAlgorithm
        var generation: Int
    }

    private static let keys = Mutex<[Entry: IssuerKey]>([:])
    private static let capacity = 64

    static func key(seed: [UInt8], algorithm: TokenSigningAlgorithm, generation: Int) -> IssuerKey {
        let entry = Entry(seed: seed, algorithm: algorithm, generation: generation)
        if let known = keys.withLock({ $0[entry] }) { return known }
        // Made outside the lock: two daemons making the same key at once both get the same one.
        let stream = KeyStream(seed: seed, label: "\(algorithm.rawValue) \(generation)")
        let signingKey: JWS.SigningKey
        switch algorithm {
        case .rs256: signingKey = .rsa(RSA.PrivateKey.generate(random: stream), .sha256)
        case .ps256: signingKey = .rsaPSS(RSA.PrivateKey.generate(random: stream))
        case .es256: signingKey = .p256(P256.PrivateKey(generatingWith: stream))
        }
        let verificationKey: JWS.VerificationKey
        switch signingKey {
        case .p256(let key): verificationKey = .p256(key.publicKey)
        case .rsa(let key, _), .rsaPSS(let key): verificationKey = .rsa(key.publicKey)
        case .hmac(let key): verificationKey = .hmac(key)
        }
        let key = IssuerKey(
            algorithm: algorithm, generation: generation,
            kid: kid(seed: seed, algorithm: algorithm, generation: generation), signingKey: signingKey,
            verificationKey: verificationKey)
        keys.withLock {
            if $0.count >= capacity { $0.removeAll() }
            $0[entry] = key
        }
        return key
    }

    /// HMAC-SHA256(seed, "kid" ‖ algorithm ‖ generation), first 20 bytes, base64url: stable for
    /// a seed, and telling nothing about the seed or the key.
    static func kid(seed: [UInt8], algorithm: TokenSigningAlgorithm, generation: Int) -> String {
        Base64URL.encode(
            HMACSHA256.Key(seed).authenticate(Array("kid \(algorithm.rawValue) \(generation)".utf8)).prefix(20))
    }
}

/// The stream a key is drawn from: SHA-256(seed ‖ label ‖ counter) in blocks of four words.
/// Its own, so making a key draws nothing from the daemon's random source.
final class KeyStream: RandomSource {
    private let prefix: [UInt8]
    private var counter: UInt64 = 0
    private var block: [UInt64] = []

    init(seed: [UInt8], label: String) { prefix = seed + Array(label.utf8) }

    func next() -> UInt64 {
        if block.isEmpty {
            let digest = SHA256.hash(prefix + (0..<8).map { UInt8(truncatingIfNeeded: counter >> (8 * $0)) })
            counter += 1
            block = (0..<4).map { word in
                digest[(8 * word)..<(8 * word + 8)].reduce(0) { $0 << 8 | UInt64($1) }
            }
        }
        return block.removeLast()
    }
}
