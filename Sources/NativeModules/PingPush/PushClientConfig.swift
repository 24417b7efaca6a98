import EmulatedDevice

/// What a push client keeps of its config: the cleanup policy (`push/ios/RNPingPushCommon.swift`
/// `buildCleanupConfig`, ping-android `NotificationCleanupConfig`; 100 notifications, 30 days).
struct PushClientConfig {
    var cleanupMode = "COUNT_BASED"
    var maxStored = 100
    var maxAgeDays = 30

    /// `NotificationCleanupManager.runCleanup`: the message ids to remove. COUNT_BASED keeps the
    /// newest `maxStored`, AGE_BASED drops those older than `maxAgeDays`, HYBRID both, NONE nothing.
    func cleanup(_ notifications: [PushNotification], credentialId: String?, now: Double) -> Set<String> {
        guard cleanupMode != "NONE" else { return [] }
        let scoped = notifications.filter { credentialId == nil || $0.mechanismUid == credentialId }
        var doomed = Set<String>()
        if cleanupMode == "AGE_BASED" || cleanupMode == "HYBRID" {
            let cutoff = now - Double(maxAgeDays) * 86_400
            for notification in scoped where notification.sentAt < cutoff { doomed.insert(notification.id) }
        }
        if cleanupMode != "AGE_BASED" {
            let newestFirst = scoped.sorted { $0.sentAt > $1.sentAt }
            for notification in newestFirst.dropFirst(max(maxStored, 0)) { doomed.insert(notification.id) }
        }
        return doomed
    }
}
