import AuthBridgeCore

/// A result encoded once and answered many times (daemon.hello's): its bytes go out as they
/// are, behind each request's own id, instead of the tree being written again per call.
/// `value` stays for what needs the tree: a batch's array, the trace.
public struct EncodedResult: Sendable {
    public let value: JSONValue
    public let bytes: [UInt8]

    public init(_ value: JSONValue) {
        self.value = value
        bytes = JSONWriter().bytes(value)
    }
}

public typealias RPCEncodedHandler = (RPCCall) throws(JSONRPCError) -> EncodedResult

extension JSONRPCOutgoing {
    /// The bytes `JSONWriter` writes for `response(id:result:)` (members in the same order, no
    /// spaces), with the result copied in.
    public static func write(response id: RequestID?, encoded result: EncodedResult, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        JSONWriter().write(id?.json ?? .null, into: &out)
        out.append(contentsOf: #","result":"#.utf8)
        out.append(contentsOf: result.bytes)
        out.append(UInt8(ascii: "}"))
    }
}
