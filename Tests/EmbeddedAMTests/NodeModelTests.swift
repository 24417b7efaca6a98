import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// The node model underneath the journeys: the registry that builds nodes from a file's settings,
/// pages made of child nodes, the typed callback builders and the step renderer.
extension NodeContext {
    static func make(_ am: EmbeddedAM, clock: VirtualClock, entry: Entry = .arrived, shared: JSONObject = [:]) -> NodeContext {
        NodeContext(
            nodeId: "n", journeyName: "J", entry: entry, shared: shared, transient: [:], nodeState: [:], failureMessage: nil,
            failureDetail: [:], suspension: nil, noSession: false, users: am.users, sessions: am.sessions, clock: clock,
            random: SeededRandomSource(seed: 5), config: am.config, outbox: am.outbox, scenario: nil)
    }
}

@Suite struct NodeRegistryTests {
    @Test func anUnknownTypeListsEveryKnownTypeInOrder() throws {
        do {
            _ = try NodeRegistry.node(id: "a", json: ["type": "warp"])
            Issue.record("accepted an unknown type")
        } catch {
            #expect(error.reason == """
                unknown node type "warp" (known: page, dataStoreDecision, createObject, retryLimit, accountLockout, otpGenerate, \
                otpVerify, choiceCollector, pollingWait, deviceProfile, suspend, valueDecision, setFailureDetails, success, failure)
                """)
        }
    }

    @Test func aNodeIsBuiltFromItsSettingsWithItsOutcomes() throws {
        let built = try NodeRegistry.node(
            id: "retry", json: ["type": "retryLimit", "retryLimit": 5, "saveToUser": false, "outcomes": ["retry": "a", "reject": "b"]])
        #expect(built.type == "retryLimit")
        #expect(built.outcomes == ["retry": "a", "reject": "b"])
        let node = try #require(built.node as? RetryLimitNode)
        #expect(node.limit == 5)
        #expect(node.saveToUser == false)
        #expect(node.outcomes == ["retry", "reject"])
    }

    @Test func everyTypeIsRegisteredOnce() {
        let names = NodeRegistry.types.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count == 15)
    }

    @Test func anUnwiredOptionalOutcomeLeadsWhereItsFallbackLeads() throws {
        let journey = try JourneyDefinition(json: try JSONParser.parse(#"""
            {"name":"J","entry":"v","nodes":{"v":{"type":"otpVerify","outcomes":{"true":"s","false":"f"}},
             "s":{"type":"success"},"f":{"type":"failure"}}}
            """#))
        #expect(journey.nodes["v"]?.outcomes["expired"] == "f")
    }

    @Test func theCallbacksANodeSendsAreCheckedWhenTheJourneyLoads() {
        // A Polling Wait's and a Suspend's callbacks have the limits those callbacks have in a page.
        let cases: [(JSONValue, String)] = [
            (["type": "pollingWait", "seconds": 3601, "outcomes": [:]], #""waitTime" must be an integer from 0 to 3600000"#),
            (["type": "suspend", "message": ""], #""message" is required (a non-empty string)"#),
        ]
        for (json, reason) in cases {
            do {
                _ = try NodeRegistry.node(id: "n", json: json)
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.reason == reason)
            }
        }
    }
}

@Suite struct PageOfChildren {
    static let page: JSONValue = [
        "type": "page", "stage": "S",
        "callbacks": [
            ["type": "NameCallback"], ["type": "PasswordCallback"],
            ["type": "ValidatedCreateUsernameCallback", "sharedState": "handle", "policies": [["policyId": "minimum-length", "params": ["minLength": 3]]]],
            ["type": "WebAuthnAuthenticationCallback", "challenge": "c"],
        ],
        "outcomes": ["next": "x"],
    ]

    static func node() throws -> PageNode { try #require(try NodeRegistry.node(id: "p", json: page).node as? PageNode) }

    @Test func eachCallbackEntryIsAChildAndTheStepConcatenatesThem() throws {
        let page = try Self.node()
        #expect(page.children.map(\.callbackCount) == [1, 1, 1, 2])
        let harness = Harness()
        var context = NodeContext.make(harness.am, clock: harness.clock)
        guard case .send(let step) = page.process(&context) else { Issue.record("no step"); return }
        #expect(step.isPage)
        #expect(step.stage == "S")
        #expect(step.callbacks.map(\.type) == [
            "NameCallback", "PasswordCallback", "ValidatedCreateUsernameCallback", "MetadataCallback", "HiddenValueCallback",
        ])
    }

    @Test func aChildWhosePolicyFailsShowsThePageAgainWithTypedValuesButNoPassword() throws {
        let page = try Self.node()
        let harness = Harness()
        let answers = [
            CallbackAnswer(inputs: ["": "ann"]), CallbackAnswer(inputs: ["": "secret"]), CallbackAnswer(inputs: ["": "ab"]),
            CallbackAnswer(), CallbackAnswer(inputs: ["": "done"]),
        ]
        var context = NodeContext.make(harness.am, clock: harness.clock, entry: .answered(answers))
        guard case .send(let step) = page.process(&context) else { Issue.record("no step"); return }
        #expect(step.callbacks[0].input[0].value == "ann")
        #expect(step.callbacks[1].input[0].value == "")
        #expect(step.callbacks[2].output.first { $0.name == "failedPolicies" }?.value == [
            #"{ "params": { "minLength": 3 }, "policyRequirement": "MIN_LENGTH" }"#,
        ])
        #expect(step.callbacks[4].input[0].value == "done")
        // Every child took its answer even though the page repeats; the password is transient.
        #expect(context.shared["username"] == "ann")
        #expect(context.shared["handle"] == "ab")
        #expect(context.shared["webAuthnOutcome"] == "done")
        #expect(context.shared["password"] == nil)
        #expect(context.transient["password"] == "secret")
        #expect(context.password == "secret")
    }

    @Test func validateOnlyShowsThePageAgainAndGoodAnswersGoOn() throws {
        let page = try Self.node()
        let harness = Harness()
        var answers = [
            CallbackAnswer(inputs: ["": "ann"]), CallbackAnswer(inputs: ["": "secret"]), CallbackAnswer(inputs: ["": "abc", "validateOnly": true]),
            CallbackAnswer(), CallbackAnswer(),
        ]
        var context = NodeContext.make(harness.am, clock: harness.clock, entry: .answered(answers))
        guard case .send = page.process(&context) else { Issue.record("validateOnly went on"); return }
        answers[2].inputs["validateOnly"] = false
        context = NodeContext.make(harness.am, clock: harness.clock, entry: .answered(answers))
        guard case .outcome("next") = page.process(&context) else { Issue.record("good answers did not go on"); return }
    }

    /// A child that is not a callback entry: the page asks every child and repeats while one asks.
    struct AskOnce: PageChild {
        var callbackCount: Int { 1 }
        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            [.textInput(prompt: "again?", defaultText: nil, value: answers?[0].value)]
        }
        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {}
        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
            PageChildReview(showAgain: answers[0].value == "no")
        }
    }

    @Test func thePageRepeatsWhileAnyChildAsks() throws {
        let name = try CallbackFormat.collector(json: ["type": "NameCallback"])
        let page = PageNode(children: [name, AskOnce()])
        let harness = Harness()
        var context = NodeContext.make(harness.am, clock: harness.clock, entry: .answered([CallbackAnswer(inputs: ["": "ann"]), CallbackAnswer(inputs: ["": "no"])]))
        guard case .send(let step) = page.process(&context) else { Issue.record("did not repeat"); return }
        #expect(step.callbacks.map { $0.input[0].value } == ["ann", "no"])
        context = NodeContext.make(harness.am, clock: harness.clock, entry: .answered([CallbackAnswer(inputs: ["": "ann"]), CallbackAnswer(inputs: ["": "yes"])]))
        guard case .outcome("next") = page.process(&context) else { Issue.record("did not go on"); return }
    }

    @Test func kbaCallbacksOfOnePageBuildOneList() throws {
        let page = PageNode(children: [
            try CallbackFormat.collector(json: ["type": "KbaCreateCallback", "predefinedQuestions": ["A?"]]),
            try CallbackFormat.collector(json: ["type": "KbaCreateCallback", "predefinedQuestions": ["B?"]]),
        ])
        let harness = Harness()
        var context = NodeContext.make(harness.am, clock: harness.clock, entry: .answered([
            CallbackAnswer(inputs: ["question": "A?", "answer": "1"]), CallbackAnswer(inputs: ["question": "B?", "answer": "2"]),
        ]))
        _ = page.process(&context)
        #expect(context.shared.value(path: "objectAttributes.kbaInfo") == [["question": "A?", "answer": "1"], ["question": "B?", "answer": "2"]])
    }
}

@Suite struct TypedCallbacks {
    @Test func buildersWriteAMsOrderAndRules() {
        let choice = Callback.choice(prompt: "Color", choices: ["red", "green"], defaultChoice: 1)
        #expect(choice.output.map(\.name) == ["prompt", "choices", "defaultChoice"])
        #expect(choice.input == [Callback.Field("", 1)])
        #expect(choice.answerRule == .optionIndex(count: 2))
        let confirmation = Callback.confirmation(prompt: "", messageType: 0, options: ["Exit"], optionType: -1, defaultOption: 0, preset: 100)
        #expect(confirmation.output.map(\.name) == ["prompt", "messageType", "options", "optionType", "defaultOption"])
        #expect(confirmation.input == [Callback.Field("", 100)])
        #expect(Callback.pollingWait(waitTime: 8000, message: "m").output[0].value == "8000")
        #expect(Callback.password(prompt: "P").input == [Callback.Field("", "")])
    }

    @Test func anOptionIndexAnswerIsCheckedAndBecomesAnInteger() {
        let callbacks = [Callback.choice(prompt: "C", choices: ["a", "b"], defaultChoice: 0)]
        guard case .success(let answers) = CallbackAnswer.checked([CallbackAnswer(inputs: ["": "1"])], for: callbacks) else {
            Issue.record("refused a digit string")
            return
        }
        #expect(answers[0].value == 1)
        guard case .failure(let invalid) = CallbackAnswer.checked([CallbackAnswer(inputs: ["": 2])], for: callbacks) else {
            Issue.record("accepted an index out of range")
            return
        }
        #expect(invalid.message == "Invalid value for ChoiceCallback IDToken1: expected the index of an option, got 2")
    }

    /// AM writes `_id` only on Page-node steps (am-nodes.md §8).
    @Test func theRendererWritesIdOnlyOnPageSteps() {
        let name = Callback.name(prompt: "User Name")
        let bare: JSONObject = ["type": "NameCallback", "output": [["name": "prompt", "value": "User Name"]], "input": [["name": "IDToken2", "value": ""]]]
        var withId = bare
        withId["_id"] = 1
        #expect(StepRenderer.render(name, position: 1, pageStep: true) == .object(withId))
        #expect(StepRenderer.render(name, position: 1, pageStep: false) == .object(bare))
    }
}
