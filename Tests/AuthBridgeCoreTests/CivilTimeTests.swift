import AuthBridgeCore
import Testing

/// Seconds since 1970 to calendar text: the epoch, a leap day, the last second AuthBridge accepts,
/// and fractions, against dates anyone can check with `date -u -d @SECONDS`.
@Suite struct CivilTimeTests {
    @Test(
        arguments: [
            (0.0, "1970-01-01T00:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (1_767_225_600 + 13 * 3600 + 65, "2026-01-01T13:01:05Z"),
            (4_107_542_399.999, "2100-02-28T23:59:59Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
        ] as [(Double, String)])
    func secondsAsAMWritesThem(seconds: Double, text: String) {
        #expect(ISO8601.format(seconds) == text)
    }

    @Test func millisecondsAsIDMStoresThem() {
        #expect(ISO8601.formatMillis(0) == "1970-01-01T00:00:00.000Z")
        #expect(ISO8601.formatMillis(1_767_225_600.25) == "2026-01-01T00:00:00.250Z")
        #expect(ISO8601.formatMillis(1_767_225_599.999) == "2025-12-31T23:59:59.999Z")
    }

    @Test func fieldsBeforeTheEpochRoundTowardThePast() {
        let t = CivilTime(unixMillis: -1)
        #expect(
            [t.year, t.month, t.day, t.hour, t.minute, t.second, t.millisecond] == [1969, 12, 31, 23, 59, 59, 999])
    }
}
