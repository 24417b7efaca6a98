import NativeSDK

extension Dialect {
    /// The first half of every sample bridge's `next`: the payload JS sent, decoded as the
    /// native bridges decode it, and the node it answers. A payload that cannot be read, or no
    /// journey in progress, is this platform's rejection. (The Java bridge dereferences a missing
    /// node and crashes; AuthBridge rejects on every platform.)
    func answer(to text: String, sdk: AuthSDK) throws(BridgeError) -> (payload: StepPayload, node: Node) {
        let payload: StepPayload
        do {
            payload = try StepPayload.decode(text)
        } catch {
            throw unreadablePayload(error.detail)
        }
        guard let node = sdk.currentNode else { throw noJourney }
        return (payload, node)
    }
}
