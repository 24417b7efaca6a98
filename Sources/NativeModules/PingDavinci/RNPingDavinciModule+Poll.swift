import AuthBridgeCore
import NativeSDK

extension RNPingDavinciModule {
    /// `pollDaVinci(davinciId, {key?})`: resolves `{subscriptionId}` and streams the polling
    /// collector's ticks as `com.pingidentity.rndavinci.PollingStatus` events tagged with it and
    /// the client's id (`RNPingDavinciCommon.pollDaVinci` on each platform). The collector is the
    /// one with `key`, else the form's first. The whole poll runs within the call (the emulator
    /// does not wait out `pollInterval`), so its ticks are sent with the call's answer; a terminal
    /// tick does not advance the flow, JS calls `next`.
    func poll(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("pollDaVinci", args, ["davinciId", "options"])
        let id = try Arguments.string(args, 0, "davinciId")
        let options = try Arguments.object(args, 1, "options")
        guard var node = davincis[id]?.node, let client = davincis[id]?.client else {
            throw PingRejection.davinci(.poll, .state, "No active ContinueNode found for davinci id=\(id)")
        }
        let key = options["key"]?.stringValue
        let polling = node.collectors.indices.filter { node.collectors[$0].kind == .polling }
        guard let index = key.map({ key in polling.first { node.collectors[$0].key == key } }) ?? polling.first else {
            throw PingRejection.davinci(
                .poll, .state,
                "No active PollingCollector found for davinci id=\(id)" + (key.map { " with key=\($0)" } ?? ""))
        }
        let subscriptionId = sdk.newId()
        for tick in client.poll(&node, collector: index) {
            var body: JSONObject = ["subscriptionId": .string(subscriptionId), "daVinciId": .string(id)]
            switch tick {
            case .continue(let retryCount, let maxRetries):
                body["status"] = "continue"
                body["retryCount"] = .int(Int64(retryCount))
                body["maxRetries"] = .int(Int64(maxRetries))
            case .complete(let value):
                body["status"] = "complete"
                body["value"] = .string(value)
            case .timedOut: body["status"] = "timedOut"
            case .expired: body["status"] = "expired"
            case .error(let message):
                body["status"] = "error"
                body["error"] = ["message": .string(message)]
            }
            moduleEvents.emit(Self.pollingStatusEvent, .object(body))
        }
        davincis[id]?.node = node
        return ["subscriptionId": .string(subscriptionId)]
    }
}
