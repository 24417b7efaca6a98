import AuthBridgeCore

/// The loaded journeys by name. The built-ins are kept as their text and parsed the first time
/// a journey by that name is asked for: parsing all eleven was half of a spawn's start-up, and
/// most sessions run one or two (docs/performance.md). Parsing draws nothing from the random
/// source or the clock, so when it happens changes no output.
struct JourneyCatalog {
    private var parsed: [String: JourneyDefinition] = [:]
    private var unparsed: [String: String] = [:]

    init(builtIns: [(name: String, text: String)]) {
        for builtIn in builtIns { unparsed[builtIn.name] = builtIn.text }
    }

    var names: [String] { (Array(parsed.keys) + Array(unparsed.keys)).sorted() }

    /// Adds a journey; one with the name of a built-in replaces it.
    mutating func add(_ journey: JourneyDefinition) {
        unparsed[journey.name] = nil
        parsed[journey.name] = journey
    }

    mutating func named(_ name: String) -> JourneyDefinition? {
        if let journey = parsed[name] { return journey }
        guard let text = unparsed.removeValue(forKey: name) else { return nil }
        let journey = Self.parse(builtIn: text)
        parsed[name] = journey
        return journey
    }

    /// Whether any journey has a node whose outcome a scenario decides. A built-in has none (a
    /// test checks), so the ones not parsed yet need not be.
    var hasScenarioNodes: Bool { parsed.values.contains { !$0.scenarioNodes.isEmpty } }

    /// The journeys parsed so far (every added one, and the built-ins asked for).
    var parsedJourneys: [JourneyDefinition] { Array(parsed.values) }

    /// The built-ins are part of the program: a broken one is a bug, not an input error
    /// (a test parses each and checks its name).
    static func parse(builtIn text: String) -> JourneyDefinition {
        try! JourneyDefinition(json: try! JSONParser.parse(text))
    }
}
