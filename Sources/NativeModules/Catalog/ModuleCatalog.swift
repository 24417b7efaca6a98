/// The native modules a daemon serves, by the names their methods carry on the wire
/// (`login`, or `RNPingJourney.start` for a namespaced module), in registration order.
public struct ModuleCatalog {
    public private(set) var modules: [any NativeModule] = []
    private var methodsByWireName: [String: NativeMethod] = [:]
    /// Every method's wire name in registration order (what `daemon.hello` lists).
    public private(set) var wireNames: [String] = []

    public init() {}

    public mutating func register(_ module: any NativeModule) {
        modules.append(module)
        for method in module.methods {
            let wireName = module.namespace.isEmpty ? method.name : "\(module.namespace).\(method.name)"
            if methodsByWireName[wireName] == nil { wireNames.append(wireName) }
            methodsByWireName[wireName] = method
        }
    }

    public func method(_ wireName: String) -> NativeMethod? { methodsByWireName[wireName] }

    /// Every event the modules emit, each once, in registration order.
    public var events: [String] {
        var seen: [String] = []
        for event in modules.flatMap(\.events) where !seen.contains(event) { seen.append(event) }
        return seen
    }
}
