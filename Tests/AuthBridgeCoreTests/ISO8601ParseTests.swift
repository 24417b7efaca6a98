import AuthBridgeCore
import Testing

/// `ISO8601.parse` reads back what `format` and `formatMillis` write, and nothing else.
@Suite struct ISO8601ParseTests {
    @Test(arguments: [0, 1_767_225_600, 1_767_225_600.25, 253_402_300_799])
    func readsBackWhatItWrites(seconds: Double) {
        #expect(ISO8601.parse(ISO8601.formatMillis(seconds)) == seconds)
        #expect(ISO8601.parse(ISO8601.format(seconds.rounded(.down))) == seconds.rounded(.down))
    }

    @Test(arguments: [
        "", "2026-01-01", "2026-01-01T00:00:00", "2026-01-01T00:00:00+01:00", "2026-02-29T00:00:00Z",
        "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.5Z",
        "1969-12-31T23:59:59Z", "2026-01-01 00:00:00Z", "２026-01-01T00:00:00Z",
    ])
    func refusesAnythingElse(text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    @Test func leapDaysExistInLeapYears() {
        #expect(ISO8601.parse("2028-02-29T00:00:00Z") == 1_835_395_200)
    }
}
