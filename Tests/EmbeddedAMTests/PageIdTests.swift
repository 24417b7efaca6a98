import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// The `_id`s AM's Page node gives its callbacks and the order it runs its children in, checked
/// against the cases of AM's own `PageNodeTest.java` (ForgeRock/am-external, releases/8.0.2,
/// openam-auth-trees/framework-nodes): requests in, steps out with their `_id`s. Input names
/// stay `IDToken<position + 1>` whatever the ids.
struct PageIdTests {
    typealias T = AMMoreNodesTests
    typealias Child = (id: String, type: String, config: JSONObject)

    /// A tree "T" whose entry is a Page node "p" of `children`, going to Success on its outcome
    /// (and, for a page ending with Select IdP, to the marker on `socialAuthentication`), with
    /// `providers` as the tree's social identity providers.
    static func harness(_ children: [Child], providers: [String] = []) throws -> Harness {
        let connections: JSONObject =
            children.last?.type == "SelectIdPNode"
            ? ["localAuthentication": T.success, "socialAuthentication": "marker"] : ["outcome": T.success]
        let inner = JSONObject(
            children.map { child in
                var config = child.config
                config["_id"] = .string(child.id)
                config["_type"] = ["_id": .string(child.type)]
                return (child.id, .object(config))
            })
        let page: JSONObject = [
            "nodes": .array(
                children.map { ["_id": .string($0.id), "nodeType": .string($0.type), "displayName": .string($0.id)] })
        ]
        var export = try JSONParser.parse(
            AMExports.tree("T", entry: "p", [("p", "PageNode", connections, page), T.marker], inner: inner))
        if !providers.isEmpty, case .object(var root) = export, case .object(var trees)? = root["trees"],
            case .object(var tree)? = trees["T"]
        {
            tree["socialIdentityProviders"] = .object(
                JSONObject(providers.map { ($0, ["_id": .string($0), "enabled": true, "uiConfig": [:]]) }))
            trees["T"] = .object(tree)
            root["trees"] = .object(trees)
            export = .object(root)
        }
        let h = Harness()
        for journey in try AMExports.load([JSONWriter.compact(export)]) { h.am.add(journey: journey) }
        return h
    }

    static let username: Child = (
        "user", "ValidatedUsernameNode", ["validateInput": false, "usernameAttribute": "userName"]
    )
    static let newUsername: Child = (
        "user", "ValidatedUsernameNode", ["validateInput": true, "usernameAttribute": "userName"]
    )
    static let password: Child = (
        "pass", "ValidatedPasswordNode", ["validateInput": true, "passwordAttribute": "password"]
    )
    /// The "Login Page" of Frodo's `FrodoTest` export (rockcarver/frodo-cli,
    /// test/e2e/exports/all-separate/cloud/realm/root-alpha/journey/FrodoTest.journey.json):
    /// Platform Username, Platform Password, Select Identity Provider, configured as there.
    static let loginPage: [Child] = [
        (
            "7a351800-fb7e-4145-903c-388554747556", "ValidatedUsernameNode",
            ["usernameAttribute": "userName", "validateInput": false]
        ),
        (
            "804e6a68-1720-442b-926a-007e90f02782", "ValidatedPasswordNode",
            ["passwordAttribute": "password", "validateInput": false]
        ),
        selectIdP,
    ]
    static let selectIdP: Child = (
        "228a44d5-fd78-4278-8999-fdd470ea7ebf", "SelectIdPNode",
        [
            "filteredProviders": [], "identityAttribute": "mail", "includeLocalAuthentication": true,
            "offerOnlyExisting": false, "passwordAttribute": "password",
        ]
    )

    static func ids(_ step: JSONValue) -> [JSONValue?] { step["callbacks"]?.arrayValue?.map { $0["_id"] } ?? [] }
    static func inputNames(_ step: JSONValue) -> [String] {
        step["callbacks"]?.arrayValue?.compactMap { $0["input"]?[0]?["name"]?.stringValue } ?? []
    }

    /// `shouldReturnAllCallbacks`: the first showing numbers the callbacks in child order.
    @Test func theFirstShowingNumbersEveryCallbackInOrder() throws {
        let h = try Self.harness([Self.username, Self.password])
        let step = h.start("T").body
        #expect(Self.ids(step) == [0, 1])
        #expect(Self.inputNames(step) == ["IDToken1", "IDToken2"])
    }

    /// `shouldReturnExistingCallbacksForNodesWithOutcome`: shown again, a child that asks again
    /// gets the highest id so far plus one; the others keep theirs. Input names follow the
    /// position, so answers are read as before; the page gives them to its children by id.
    @Test func aChildThatAsksAgainGetsNewIdsAndTheOthersKeepTheirs() throws {
        let h = try Self.harness([Self.username, Self.password])
        let weak = h.submit(h.start("T").body, ["IDToken1": "demo", "IDToken2": "short"]).body
        #expect(Self.ids(weak) == [0, 2], "the password failed its policies")
        #expect(Self.inputNames(weak) == ["IDToken1", "IDToken2"])
        #expect(weak["callbacks"]?[0]?["input"]?[0]?["value"] == "demo", "the username kept what was typed")
        let still = h.submit(weak, ["IDToken2": "stillweak"]).body
        #expect(Self.ids(still) == [0, 3])
        #expect(h.submit(still, ["IDToken2": "Ch4ng3it!"]).body["tokenId"] != nil)
    }

    /// `validateOnly` makes a child ask again too: the validated username gets a new id, the
    /// password, which was not validating, keeps its own.
    @Test func validateOnlyGivesTheValidatingChildNewIds() throws {
        let h = try Self.harness([Self.newUsername, Self.password])
        let validating = h.submit(
            h.start("T").body, ["IDToken1": "newbie", "IDToken1validateOnly": true, "IDToken2": "Ch4ng3it!"]
        ).body
        #expect(Self.ids(validating) == [2, 1])
        let again = h.submit(
            validating, ["IDToken1": "newbie2", "IDToken1validateOnly": true, "IDToken2": "Ch4ng3it!"]
        ).body
        #expect(Self.ids(again) == [3, 1])
        #expect(h.submit(again, ["IDToken2": "Ch4ng3it!"]).body["callbacks"] == nil, "the page went on")
    }

    /// The request of `shouldReturnExistingCallbacksForNodesWithOutcome` itself: the map
    /// `{0: 0, 1: 1}` in shared state, answers to ids 0 and 1, the first child going on, the
    /// second sending two callbacks: they come out as 0, 2, 3.
    @Test func amsOwnCaseGivesZeroTwoThree() throws {
        let harness = Harness()
        let page = PageOfChildren.page([try CallbackFormat.collector(json: ["type": "NameCallback"]), SendsTwo()])
        let shared: JSONObject = [PageCallbackIds.sharedKey: ["0": 0, "1": 1]]
        var context = NodeContext.make(
            harness.am, clock: harness.clock,
            entry: .answered([
                CallbackAnswer(inputs: ["": "Node1"], id: 0), CallbackAnswer(inputs: ["": "Node2"], id: 1),
            ]), shared: shared)
        guard case .send(let step) = page.process(&context) else {
            Issue.record("no step")
            return
        }
        #expect(step.ids == [0, 2, 3])
        #expect(step.callbacks[0].input[0].value == "Node1", "the first child got the answer to id 0")
        #expect(context.shared[PageCallbackIds.sharedKey] == ["0": 0, "1": 1, "2": 1, "3": 1])
    }

    /// A child that always asks again with two callbacks (AM's test's second node).
    struct SendsTwo: PageChild {
        var callbackCount: Int { 2 }
        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            [.name(prompt: "Node3"), .name(prompt: "Node4")]
        }
        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {}
        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
            PageChildReview(showAgain: true)
        }
    }

    /// `mapOutcome`: the page forgets its ids when it goes on, so the next page starts at 0.
    @Test func thePageForgetsItsIdsWhenItGoesOn() throws {
        let harness = Harness()
        let page = PageOfChildren.page([try CallbackFormat.collector(json: ["type": "NameCallback"])])
        let (action, context) = PageOfChildren.answer(page, [CallbackAnswer(inputs: ["": "ann"])], harness)
        guard case .outcome = action else {
            Issue.record("did not go on")
            return
        }
        #expect(context.shared[PageCallbackIds.sharedKey] == nil)
        #expect(context.shared["username"] == "ann")
    }

    /// `shouldReturnAllCallbacksWithSelectIdPNodeWithIdPCallbackFirst`, on a Login Page like
    /// Frodo's: Select IdP runs first, so its callback is `_id` 0 and `IDToken1`.
    @Test func selectIdPLastOnThePageComesFirstInTheStep() throws {
        let h = try Self.harness(Self.loginPage, providers: ["google"])
        let step = h.start("T").body
        #expect(T.types(step) == ["SelectIdPCallback", "NameCallback", "PasswordCallback"])
        #expect(Self.ids(step) == [0, 1, 2])
        #expect(Self.inputNames(step) == ["IDToken1", "IDToken2", "IDToken3"])
        #expect(
            h.submit(step, ["IDToken1": "localAuthentication", "IDToken2": "demo", "IDToken3": "Ch4ng3it!"]).body[
                "tokenId"] != nil)
        // The export itself lists no social providers: Select IdP has one option and sends nothing.
        #expect(T.types(try Self.harness(Self.loginPage).start("T").body) == ["NameCallback", "PasswordCallback"])
    }

    /// `shouldSkipAllOtherNodesWhenSelectIdPReturnsSocialAuthenticationOutcome`: picking a
    /// provider skips the username and password, empty as they are.
    @Test func pickingASocialProviderSkipsThePagesOtherChildren() throws {
        let h = try Self.harness([Self.newUsername, Self.password, Self.selectIdP], providers: ["google"])
        let step = h.start("T").body
        #expect(
            T.reachedMarker(h.submit(step, ["IDToken1": "google"])), "the empty username and password asked nothing")
        let frodo = try Self.harness(Self.loginPage, providers: ["google"])
        #expect(T.reachedMarker(frodo.submit(frodo.start("T").body, ["IDToken1": "google"])))
    }

    /// `shouldReturnCallbacksWhenSelectIdPReturnsLocalAuthenticationAndNodesSendCallbacks`: local
    /// authentication runs the other children; one that asks again leaves Select IdP first, with
    /// its id.
    @Test func localAuthenticationRunsTheOthersAndSelectIdPKeepsItsPlace() throws {
        let h = try Self.harness([Self.username, Self.password, Self.selectIdP], providers: ["google"])
        let again = h.submit(
            h.start("T").body, ["IDToken1": "localAuthentication", "IDToken2": "demo", "IDToken3": "short"]
        ).body
        #expect(T.types(again) == ["SelectIdPCallback", "NameCallback", "ValidatedCreatePasswordCallback"])
        #expect(Self.ids(again) == [0, 1, 3])
        #expect(h.submit(again, ["IDToken3": "Ch4ng3it!"]).body["tokenId"] != nil)
    }

    /// `shouldReturnCallbacksWithOnlySelectIdPNode` and a page without Select IdP last: the
    /// order is the children's.
    @Test func onlyALastSelectIdPMovesFirst() throws {
        #expect(try Self.harness([Self.selectIdP], providers: ["google"]).start("T").body["callbacks"]?[0]?["_id"] == 0)
        let order = AM.PageNode(
            children: [
                AM.SelectIdPNode(social: [], local: true),
                AM.ValidatedPasswordNode(validate: false, attribute: "password"),
            ],
            header: nil, description: nil, stage: nil, isPage: true
        ).order
        #expect(order == [0, 1])
    }
}
