import EmbeddedAM

extension World {
    /// With the timeline kept: a journey that failed during the unit gets an entry of its own,
    /// with its node and reason as `emulator.lastFailure` tells them, so the page shows why
    /// beside the call that failed. `before` is the last failure when the unit began.
    func recordJourneyFailure(since before: JourneyFailure?) {
        guard let timeline, let failure = embedded.lastFailure, failure != before else { return }
        timeline.record(
            .journey, at: timeline.now, failed: true,
            concern: UnitConcern(user: failure.username, journey: failure.journey)
        ) {
            let node = failure.node.map { $0.name ?? $0.type } ?? "(no node)"
            return Timeline.Shown(name: "\(failure.journey) failed at \(node)", response: .object(failure.json))
        }
    }
}
