/// The failure counts nodes keep on a user (`DirectoryUser.counters`): one per Retry Limit node
/// saving to the user, and the realm lockout mode's. The Success node clears the journey's.
enum FailureCounters {
    static let lockoutMode = "lockoutMode"

    static func retryLimit(journey: String, node: String) -> String { journey + "/" + node }

    /// Whether the counter is one a success in `journey` resets.
    static func resetBySuccess(_ key: String, journey: String) -> Bool {
        key.hasPrefix(journey + "/") || key == lockoutMode
    }
}
