import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// The node model underneath the journeys: the registry that builds nodes from a file's settings,
/// pages made of child nodes, the typed callback builders and the step renderer.
extension NodeContext {
    static func make(
        _ am: EmbeddedAM, clock: VirtualClock, entry: Entry = .arrived, shared: JSONObject = [:]
    ) -> NodeContext {
        NodeContext(
            nodeId: "n", journeyName: "J", entry: entry, shared: shared, transient: [:], nodeState: [:],
            failureMessage: nil,
            failureDetail: [:], suspension: nil, noSession: false, users: am.users, sessions: am.sessions,
            push: am.push,
            clock: clock,
            random: SeededRandomSource(seed: 5), config: am.config, outbox: am.outbox, scenario: nil)
    }
}

@Suite struct NodeRegistryTests {
    @Test func anUnknownTypeListsEveryKnownTypeInOrder() throws {
        do {
            _ = try NodeRegistry.node(id: "a", json: ["type": "warp"])
            Issue.record("accepted an unknown type")
        } catch {
            #expect(
                error.reason == """
                    unknown node type "warp" (known: page, dataStoreDecision, createObject, retryLimit, accountLockout, otpGenerate, \
                    otpVerify, choiceCollector, pollingWait, deviceProfile, deviceSave, suspend, valueDecision, setFailureDetails, success, failure)
                    """)
        }
    }

    @Test func aNodeIsBuiltFromItsSettingsWithItsOutcomes() throws {
        let built = try NodeRegistry.node(
            id: "retry",
            json: [
                "type": "retryLimit", "retryLimit": 5, "saveToUser": false, "outcomes": ["retry": "a", "reject": "b"],
            ])
        #expect(built.count == 1)
        #expect(built[0].type == "retryLimit")
        // The file's syntax builds AM's node: its outcome ids are AM's, the file's names kept for errors.
        #expect(built[0].outcomes == ["Retry": "a", "Reject": "b"])
        #expect(built[0].outcomeNames == ["Retry": "retry", "Reject": "reject"])
        let node = try #require(built[0].node as? AM.RetryLimitDecisionNode)
        #expect(node.limit == 5)
        #expect(node.onUser == false)
    }

    @Test func everyTypeIsRegisteredOnceUnderEachOfItsNames() {
        let names = NodeRegistry.types.map(\.name)
        #expect(Set(names).count == names.count)
        let fileNames = NodeRegistry.types.compactMap(\.journeyFile?.name)
        #expect(Set(fileNames).count == fileNames.count)
        #expect(fileNames.count == 16)
        // AuthBridge's own are named so, and exports cannot name them.
        for type in NodeRegistry.types where type.name.hasPrefix("AuthBridge.") {
            #expect(NodeRegistry.amType(named: type.name) == nil)
        }
        #expect(NodeRegistry.amType(named: "RetryLimitDecisionNode")?.journeyFile?.name == "retryLimit")
    }

    @Test func aFileNodeOfTwoAMNodesIsAChain() throws {
        let built = try NodeRegistry.node(
            id: "send", json: ["type": "otpGenerate", "delivery": "sms", "outcomes": ["next": "verify"]])
        #expect(built.map(\.id) == ["send", "send#2"])
        #expect(built[0].node is AM.OneTimePasswordGeneratorNode && built[0].outcomes == ["outcome": "send#2"])
        #expect(
            (built[1].node as? AM.OneTimePasswordSenderNode)?.delivery == "sms"
                && built[1].outcomes == ["outcome": "verify"])
        #expect(built[1].fileNode == "send")
    }

    /// `expired` (otpVerify) and `invalid` (deviceProfile) are outcomes AM's nodes do not have:
    /// older files that wire them still load, and the outcomes are never taken.
    @Test func retiredOutcomesAreAcceptedAndNeverWired() throws {
        let journey = try JourneyDefinition(
            json: try JSONParser.parse(
                #"""
                {"name":"J","entry":"v","nodes":{"v":{"type":"otpVerify","outcomes":{"true":"s","false":"f","expired":"f"}},
                 "d":{"type":"deviceProfile","outcomes":{"collected":"s","invalid":"f"}},
                 "s":{"type":"success"},"f":{"type":"failure"}}}
                """#))
        #expect(journey.nodes["v"]?.outcomes == ["true": "s", "false": "f"])
        #expect(journey.nodes["d"]?.outcomes == ["outcome": "s"])
    }

    @Test func mistakesNameOutcomesAsTheFileDoes() {
        do {
            _ = try JourneyDefinition(json: [
                "name": "J", "entry": "r", "nodes": ["r": ["type": "retryLimit", "outcomes": ["retry": "r"]]],
            ])
            Issue.record("accepted a missing outcome")
        } catch {
            #expect(error.description == #"journey "J", node "r": missing outcome "reject""#)
        }
        do {
            _ = try NodeRegistry.node(id: "r", json: ["type": "retryLimit", "outcomes": ["Retry": "r"]])
            Issue.record("accepted AM's outcome id")
        } catch {
            #expect(error.reason == #"a retryLimit node has no outcome "Retry" (its outcomes: retry, reject)"#)
        }
    }

    static func expectRefused(_ cases: [(JSONValue, String)]) {
        for (json, reason) in cases {
            do {
                _ = try NodeRegistry.node(id: "n", json: json)
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.reason == reason)
            }
        }
    }

    /// Settings the built-in node types had and AM's nodes do not: a clear error, not a silent change.
    @Test func settingsAMsNodesDoNotHaveAreRefused() {
        let cases: [(JSONValue, String)] = [
            (
                ["type": "accountLockout", "duration": 300],
                #""duration" is no setting of AM's Account Lockout, which locks until unlocked; a lock that ends is dataStoreDecision's "lockoutMode""#
            ),
            (
                ["type": "otpGenerate", "validity": 120],
                #""validity" is a setting of otpVerify now: AM's OTP Collector Decision checks the code's age"#
            ),
        ]
        Self.expectRefused(cases)
    }

    @Test func theCallbacksANodeSendsAreCheckedWhenTheJourneyLoads() {
        // A Polling Wait's wait is AM's whole seconds; a Suspend's message may not be empty.
        let cases: [(JSONValue, String)] = [
            (
                ["type": "pollingWait", "seconds": 3601, "outcomes": [:]],
                #""seconds" must be an integer from 1 to 3600"#
            ),
            (["type": "suspend", "message": ""], #""message" is required (a non-empty string)"#),
        ]
        Self.expectRefused(cases)
    }
}

@Suite struct PageOfChildren {
    static let page: JSONValue = [
        "type": "page", "stage": "S",
        "callbacks": [
            ["type": "NameCallback"], ["type": "PasswordCallback"],
            [
                "type": "ValidatedCreateUsernameCallback", "sharedState": "handle",
                "policies": [["policyId": "minimum-length", "params": ["minLength": 3]]],
            ],
            ["type": "WebAuthnAuthenticationCallback", "challenge": "c"],
        ],
        "outcomes": ["next": "x"],
    ]

    static func node() throws -> AM.PageNode {
        try #require(try NodeRegistry.node(id: "p", json: page)[0].node as? AM.PageNode)
    }

    static func page(_ children: [any PageChild]) -> AM.PageNode {
        AM.PageNode(children: children, header: nil, description: nil, stage: nil, isPage: true)
    }

    /// Shows the page, then hands it `answers` as the engine does: each carries the `_id` of the
    /// callback it answers, and the page's ids wait in shared state in between.
    static func answer(
        _ page: AM.PageNode, _ answers: [CallbackAnswer], _ harness: Harness
    ) -> (action: NodeAction, context: NodeContext) {
        var shown = NodeContext.make(harness.am, clock: harness.clock)
        guard case .send(let step) = page.process(&shown), let ids = step.ids else {
            fatalError("the page sent no page step")
        }
        var answers = answers
        for index in answers.indices { answers[index].id = ids[index] }
        var context = NodeContext.make(
            harness.am, clock: harness.clock, entry: .answered(answers), shared: shown.shared)
        let action = page.process(&context)
        return (action, context)
    }

    @Test func eachCallbackEntryIsAChildAndTheStepConcatenatesThem() throws {
        let page = try Self.node()
        #expect(page.children.map(\.callbackCount) == [1, 1, 1, 2])
        let harness = Harness()
        var context = NodeContext.make(harness.am, clock: harness.clock)
        guard case .send(let step) = page.process(&context) else {
            Issue.record("no step")
            return
        }
        #expect(step.isPage)
        #expect(step.stage == "S")
        #expect(
            step.callbacks.map(\.type.rawValue) == [
                "NameCallback", "PasswordCallback", "ValidatedCreateUsernameCallback", "MetadataCallback",
                "HiddenValueCallback",
            ])
    }

    @Test func aChildWhosePolicyFailsShowsThePageAgainWithTypedValuesButNoPassword() throws {
        let page = try Self.node()
        let harness = Harness()
        let answers = [
            CallbackAnswer(inputs: ["": "ann"]), CallbackAnswer(inputs: ["": "secret"]),
            CallbackAnswer(inputs: ["": "ab"]),
            CallbackAnswer(), CallbackAnswer(inputs: ["": "done"]),
        ]
        let (action, context) = Self.answer(page, answers, harness)
        guard case .send(let step) = action else {
            Issue.record("no step")
            return
        }
        #expect(step.callbacks[0].input[0].value == "ann")
        #expect(step.callbacks[1].input[0].value == "")
        #expect(
            step.callbacks[2].output.first { $0.name == "failedPolicies" }?.value == [
                #"{ "params": { "minLength": 3 }, "policyRequirement": "MIN_LENGTH" }"#
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
            CallbackAnswer(inputs: ["": "ann"]), CallbackAnswer(inputs: ["": "secret"]),
            CallbackAnswer(inputs: ["": "abc", "validateOnly": true]),
            CallbackAnswer(), CallbackAnswer(),
        ]
        guard case .send = Self.answer(page, answers, harness).action else {
            Issue.record("validateOnly went on")
            return
        }
        answers[2].inputs["validateOnly"] = false
        guard case .outcome("outcome") = Self.answer(page, answers, harness).action else {
            Issue.record("good answers did not go on")
            return
        }
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
        let page = Self.page([name, AskOnce()])
        let harness = Harness()
        guard
            case .send(let step) = Self.answer(
                page, [CallbackAnswer(inputs: ["": "ann"]), CallbackAnswer(inputs: ["": "no"])], harness
            ).action
        else {
            Issue.record("did not repeat")
            return
        }
        #expect(step.callbacks.map { $0.input[0].value } == ["ann", "no"])
        guard
            case .outcome("outcome") = Self.answer(
                page, [CallbackAnswer(inputs: ["": "ann"]), CallbackAnswer(inputs: ["": "yes"])], harness
            ).action
        else {
            Issue.record("did not go on")
            return
        }
    }

    @Test func kbaCallbacksOfOnePageBuildOneList() throws {
        let page = Self.page([
            try CallbackFormat.collector(json: ["type": "KbaCreateCallback", "predefinedQuestions": ["A?"]]),
            try CallbackFormat.collector(json: ["type": "KbaCreateCallback", "predefinedQuestions": ["B?"]]),
        ])
        let harness = Harness()
        let (_, context) = Self.answer(
            page,
            [
                CallbackAnswer(inputs: ["question": "A?", "answer": "1"]),
                CallbackAnswer(inputs: ["question": "B?", "answer": "2"]),
            ], harness)
        #expect(
            context.shared.value(path: "objectAttributes.kbaInfo") == [
                ["question": "A?", "answer": "1"], ["question": "B?", "answer": "2"],
            ])
    }
}

@Suite struct TypedCallbacks {
    @Test func buildersWriteAMsOrderAndRules() {
        let choice = Callback.choice(prompt: "Color", choices: ["red", "green"], defaultChoice: 1)
        #expect(choice.output.map(\.name) == ["prompt", "choices", "defaultChoice"])
        #expect(choice.input == [Callback.Field("", 1)])
        #expect(choice.answerRule == .optionIndex(count: 2))
        let confirmation = Callback.confirmation(
            prompt: "", messageType: 0, options: ["Exit"], optionType: -1, defaultOption: 0, preset: 100)
        #expect(confirmation.output.map(\.name) == ["prompt", "messageType", "options", "optionType", "defaultOption"])
        #expect(confirmation.input == [Callback.Field("", 100)])
        #expect(Callback.pollingWait(waitTime: 8000, message: "m").output[0].value == "8000")
        #expect(Callback.password(prompt: "P").input == [Callback.Field("", "")])
    }

    @Test func anOptionIndexAnswerIsCheckedAndBecomesAnInteger() {
        let callbacks = [Callback.choice(prompt: "C", choices: ["a", "b"], defaultChoice: 0)]
        guard case .success(let answers) = CallbackAnswer.checked([CallbackAnswer(inputs: ["": "1"])], for: callbacks)
        else {
            Issue.record("refused a digit string")
            return
        }
        #expect(answers[0].value == 1)
        guard case .failure(let invalid) = CallbackAnswer.checked([CallbackAnswer(inputs: ["": 2])], for: callbacks)
        else {
            Issue.record("accepted an index out of range")
            return
        }
        #expect(invalid.message == "Invalid value for ChoiceCallback IDToken1: expected the index of an option, got 2")
    }

    /// AM writes `_id` only on Page-node steps (ForgeRock/am-external `PageNode.java`), and it is the id the page gave the callback: the
    /// input name follows the position, `_id` does not.
    @Test func theRendererWritesIdOnlyOnPageSteps() {
        let name = Callback.name(prompt: "User Name")
        let bare: JSONObject = [
            "type": "NameCallback", "output": [["name": "prompt", "value": "User Name"]],
            "input": [["name": "IDToken2", "value": ""]],
        ]
        var withId = bare
        withId["_id"] = 3
        #expect(StepRenderer.render(name, position: 1, id: 3) == .object(withId))
        #expect(StepRenderer.render(name, position: 1, id: nil) == .object(bare))
    }
}
