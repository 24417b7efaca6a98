import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// The AM node types beyond the platform journeys' (Message, Choice Collector, Polling Wait,
/// Device Profile, …): the step each renders and where each outcome leads. A tree sends an
/// outcome to success, to failure, or to a Username Collector ("marker") whose NameCallback
/// shows the journey went that way.
struct AMMoreNodesTests {
    static let success: JSONValue = .string(AMExports.success)
    static let failure: JSONValue = .string(AMExports.failure)
    static let marker: (id: String, type: String, connections: JSONObject, config: JSONObject) =
        ("marker", "UsernameCollectorNode", ["outcome": success], [:])

    /// A harness running one inline tree named "T" beside the built-ins: a Username Collector
    /// ("u", so that success has a user to sign in), then the nodes from "n".
    static func harness(
        _ nodes: [(id: String, type: String, connections: JSONObject, config: JSONObject)]
    ) throws -> Harness {
        let h = Harness()
        let user: (id: String, type: String, connections: JSONObject, config: JSONObject) = (
            "u", "UsernameCollectorNode", ["outcome": "n"], [:]
        )
        for journey in try AMExports.load([AMExports.tree("T", entry: "u", [user] + nodes + [marker])]) {
            h.am.add(journey: journey)
        }
        return h
    }

    /// Starts "T" and answers its username step as demo: the reply of the first node under test.
    static func begin(_ h: Harness, username: String = "demo") -> ServerReply {
        h.submit(h.start("T").body, ["IDToken1": .string(username)])
    }

    static func types(_ step: JSONValue) -> [String] {
        step["callbacks"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
    }
    static func output(_ step: JSONValue, _ callback: Int, _ name: String) -> JSONValue? {
        step["callbacks"]?[callback]?["output"]?.arrayValue?.first { $0["name"] == .string(name) }?["value"]
    }
    static func input(_ step: JSONValue, _ callback: Int) -> JSONValue? {
        step["callbacks"]?[callback]?["input"]?[0]?["value"]
    }
    static func reachedMarker(_ reply: ServerReply) -> Bool { types(reply.body) == ["NameCallback"] }

    // MARK: Message

    static let message: [(id: String, type: String, connections: JSONObject, config: JSONObject)] = [
        (
            "n", "MessageNode", ["true": success, "false": "marker"],
            [
                "message": ["en": "Continue?", "fr": "Continuer ?"], "messageYes": ["en": "Proceed"], "messageNo": [:],
                "stateField": "answer",
            ]
        )
    ]

    @Test func messageRendersTextAndYesNoConfirmation() throws {
        let h = try Self.harness(Self.message)
        let step = Self.begin(h).body
        #expect(Self.types(step) == ["TextOutputCallback", "ConfirmationCallback"])
        #expect(Self.output(step, 0, "message") == "Continue?")
        #expect(Self.output(step, 0, "messageType") == "0")
        #expect(Self.output(step, 1, "options") == ["Proceed", "No"], "an empty messageNo map is AM's default")
        #expect(Self.output(step, 1, "defaultOption") == 1)
        #expect(Self.output(step, 1, "optionType") == -1)
        #expect(Self.input(step, 1) == 0, "AM pre-fills 0 although defaultOption is 1")
        #expect(step["callbacks"]?[0]?["input"] == nil, "TextOutput has no input")
        #expect(step["callbacks"]?[0]?["_id"] == nil, "a lone node's step has no _id")
    }

    @Test func messageYesIsTrueAndNoIsFalse() throws {
        let h = try Self.harness(Self.message)
        #expect(h.submit(Self.begin(h).body, ["IDToken2": 0]).body["tokenId"] != nil)
        #expect(Self.reachedMarker(h.submit(Self.begin(h).body, ["IDToken2": 1])))
    }

    @Test func messageNeedsAMessage() {
        #expect(throws: JourneyImport.Failure.self) {
            try AMExports.load([
                AMExports.tree(
                    "T", entry: "n", [("n", "MessageNode", ["true": Self.success, "false": Self.failure], [:])])
            ])
        }
    }

    // MARK: Choice Collector

    static let choice: [(id: String, type: String, connections: JSONObject, config: JSONObject)] = [
        (
            "n", "ChoiceCollectorNode", ["one": success, "two": failure, "three": "marker"],
            ["choices": ["one", "two", "three"], "defaultChoice": "two", "prompt": "Choice?"]
        )
    ]

    @Test func choiceCollectorRendersChoicesWithTheDefaultPreselected() throws {
        let h = try Self.harness(Self.choice)
        let step = Self.begin(h).body
        #expect(Self.types(step) == ["ChoiceCallback"])
        #expect(Self.output(step, 0, "prompt") == "Choice?")
        #expect(Self.output(step, 0, "choices") == ["one", "two", "three"])
        #expect(Self.output(step, 0, "defaultChoice") == 1)
        #expect(Self.input(step, 0) == 1)
    }

    @Test func choiceCollectorGoesAlongTheChosenChoice() throws {
        let h = try Self.harness(Self.choice)
        #expect(h.submit(Self.begin(h).body, ["IDToken1": 0]).body["tokenId"] != nil)
        #expect(h.submit(Self.begin(h).body, [:]).status == 401, "the default, two, leads to failure")
        #expect(Self.reachedMarker(h.submit(Self.begin(h).body, ["IDToken1": 2])))
        #expect(h.submit(Self.begin(h).body, ["IDToken1": 3]).status == 400, "no fourth choice")
    }

    @Test func aSingleChoiceSendsNothing() throws {
        let h = try Self.harness([("n", "ChoiceCollectorNode", ["only": "marker"], ["choices": ["only"]])])
        #expect(Self.reachedMarker(Self.begin(h)))
    }

    /// The corpus's RadioChoice tree: a Choice Collector inside a Page node, whose outcomes are
    /// the choices, with `_id` on the page's callbacks and the UI's hints in `stage`.
    @Test func aChoiceCollectorInAPageGivesThePageItsOutcomes() throws {
        let stage = "{\"ChoiceCallback\":[{\"id\":\"c1\",\"displayType\":\"radio\"}]}"
        let h = Harness()
        let text = AMExports.tree(
            "T", entry: "u",
            [
                ("u", "UsernameCollectorNode", ["outcome": "n"], [:]),
                (
                    "n", "PageNode", ["one": Self.success, "two": Self.failure, "three": "marker"],
                    [
                        "nodes": [["_id": "c1", "nodeType": "ChoiceCollectorNode", "displayName": "Choice"]],
                        "pageHeader": ["en": "Pick one"], "stage": .string(stage),
                    ]
                ),
                Self.marker,
            ],
            inner: [
                "c1": [
                    "_id": "c1", "_type": ["_id": "ChoiceCollectorNode"], "choices": ["one", "two", "three"],
                    "defaultChoice": "one", "prompt": "Choice?",
                ]
            ])
        for journey in try AMExports.load([text]) { h.am.add(journey: journey) }
        let page = Self.begin(h).body
        #expect(page["header"] == "Pick one")
        #expect(page["stage"] == .string(stage))
        #expect(Self.types(page) == ["ChoiceCallback"])
        #expect(page["callbacks"]?[0]?["_id"] == 0, "a page step's callbacks carry _id")
        #expect(h.submit(page, [:]).body["tokenId"] != nil, "the default, one")
        #expect(Self.reachedMarker(h.submit(Self.begin(h).body, ["IDToken1": 2])))
    }

    @Test func aDefaultChoiceNotAmongTheChoicesStopsTheLoad() {
        do {
            _ = try AMExports.load([
                AMExports.tree(
                    "T", entry: "n",
                    [("n", "ChoiceCollectorNode", ["a": Self.success], ["choices": ["a"], "defaultChoice": "b"])])
            ])
            Issue.record("loaded")
        } catch {
            #expect(
                error.description.contains(
                    "node \"n\" (ChoiceCollectorNode): \"defaultChoice\" \"b\" is not one of the choices"))
        }
    }

    // MARK: Polling Wait

    static let polling: [(id: String, type: String, connections: JSONObject, config: JSONObject)] = [
        (
            "n", "PollingWaitNode", ["DONE": success, "EXITED": "marker", "SPAM": failure],
            [
                "secondsToWait": 5, "exitable": true, "spamDetectionEnabled": true, "spamDetectionTolerance": 1,
                "waitingMessage": ["en": "Hold on"], "exitMessage": ["en": "Give up"],
            ]
        )
    ]

    @Test func pollingWaitRendersTheWaitAndTheExitOption() throws {
        let h = try Self.harness(Self.polling)
        let step = Self.begin(h).body
        #expect(Self.types(step) == ["PollingWaitCallback", "ConfirmationCallback"])
        #expect(Self.output(step, 0, "waitTime") == "5000")
        #expect(Self.output(step, 0, "message") == "Hold on")
        #expect(step["callbacks"]?[0]?["input"] == nil)
        #expect(Self.output(step, 1, "options") == ["Give up"])
        #expect(Self.input(step, 1) == 100, "AM's not-pressed value")
    }

    @Test func pollingWaitIsDoneAfterTheWaitExitedOnExitAndSpamWhenTooEager() throws {
        let h = try Self.harness(Self.polling)
        var step = Self.begin(h).body
        h.clock.advance(by: 2)
        step = h.submit(step, [:]).body
        #expect(Self.types(step).first == "PollingWaitCallback", "too early: wait again")
        h.clock.advance(by: 3)
        #expect(h.submit(step, [:]).body["tokenId"] != nil)

        #expect(Self.reachedMarker(h.submit(Self.begin(h).body, ["IDToken2": 0])))

        step = Self.begin(h).body
        step = h.submit(step, [:]).body
        #expect(h.submit(step, [:]).status == 401, "two early answers over a tolerance of 1: SPAM")
    }

    @Test func pollingWaitOutcomesFollowItsConfig() throws {
        // Without exit or spam detection, only DONE exists: wiring EXITED is a load error.
        #expect(throws: JourneyImport.Failure.self) {
            try AMExports.load([
                AMExports.tree(
                    "T", entry: "n", [("n", "PollingWaitNode", ["DONE": Self.success, "EXITED": Self.failure], [:])])
            ])
        }
    }

    // MARK: Device Profile Collector

    static let device: [(id: String, type: String, connections: JSONObject, config: JSONObject)] = [
        (
            "n", "DeviceProfileCollectorNode", ["outcome": success],
            ["deviceMetadata": true, "deviceLocation": false, "maximumSize": "1", "message": ["en": "Collecting..."]]
        )
    ]

    @Test func deviceProfileCollectorRendersTheCallbackAndKeepsTheProfile() throws {
        let h = try Self.harness(Self.device)
        let step = Self.begin(h).body
        #expect(Self.types(step) == ["DeviceProfileCallback"])
        #expect(Self.output(step, 0, "metadata") == true)
        #expect(Self.output(step, 0, "location") == false)
        #expect(Self.output(step, 0, "message") == "Collecting...")
        let profile = "{\"identifier\":\"abc-1\",\"metadata\":{\"platform\":{\"model\":\"Pixel\"}}}"
        #expect(h.submit(step, ["IDToken1": .string(profile)]).body["tokenId"] != nil)
        #expect(h.submit(Self.begin(h).body, ["IDToken1": "not json"]).status == 401)
        #expect(h.submit(Self.begin(h).body, ["IDToken1": "{\"metadata\":{}}"]).status == 401, "no identifier")
        let big = "{\"identifier\":\"x\",\"pad\":\"" + String(repeating: "a", count: 1100) + "\"}"
        #expect(h.submit(Self.begin(h).body, ["IDToken1": .string(big)]).status == 401, "over maximumSize")
    }

    @Test func deviceProfileIsKeptUnderAMsSharedStateKey() throws {
        let h = Harness()
        var context = NodeContext.make(h.am, clock: h.clock)
        let node = AM.DeviceProfileCollectorNode(metadata: true, location: true, maximumBytes: 3072, message: "")
        var round = PageRound()
        node.take([CallbackAnswer(inputs: ["": "{\"identifier\":\"abc\"}"])], into: &context, round: &round)
        #expect(context.shared["forgeRock.device.profile"]?["identifier"] == "abc")
    }
}
