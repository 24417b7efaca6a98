/// What a rotation leaves: the keys now signing, and the retired keys still published with the
/// time (Unix seconds, the daemon's clock) after which they go.
public struct SigningKeyRotation: Equatable, Sendable {
    public struct Key: Equatable, Sendable {
        public var kid: String
        public var algorithm: TokenSigningAlgorithm
        public var until: Double?

        public init(kid: String, algorithm: TokenSigningAlgorithm, until: Double?) {
            self.kid = kid
            self.algorithm = algorithm
            self.until = until
        }
    }

    public var current: [Key]
    public var retired: [Key]

    public init(current: [Key], retired: [Key]) {
        self.current = current
        self.retired = retired
    }
}
