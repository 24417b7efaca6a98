import AuthBridgeCore
import Host
import Inspector
import JSONRPC

/// `daemon.*`: what the host asks of the daemon itself.
extension RPCFace {
    func registerDaemonMethods() {
        registerEncoded("daemon.hello") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            if let helloResult { return helloResult }
            let configuration = host.configuration
            var result: JSONObject = [
                "protocolVersion": .string(Self.protocolVersion), "daemonVersion": .string(Host.productVersion),
                "flavor": .string(configuration.flavor.rawValue), "bridge": .string(configuration.variant.rawValue),
                "framing": .string(framing?.rawValue ?? "ndjson"),
                "methods": .array(server.methodNames.map { .string($0) }),
                "events": .array(host.view.events.map { .string($0) }),
                "modules": .array(
                    host.view.modules.map { module in
                        [
                            "name": .string(module.name), "namespace": .string(module.namespace),
                            "methods": .array(module.methods.map { .string($0) }),
                        ]
                    }),
                "server": [
                    "kind": "embedded", "realm": .string(host.view.server.realm),
                    "journeys": .array(host.view.journeyNames.map { .string($0) }),
                ],
                "deterministic": .bool(configuration.isDeterministic),
                "stateDir": JSONValue(host.view.stateDirectoryPath),
            ]
            // Members of remote mode only, so embedded transcripts keep their bytes.
            if let remote = configuration.remote {
                var server: JSONObject = [
                    "kind": "remote", "url": .string(remote.url), "realm": .string(remote.realm),
                    "clientId": .string(remote.oauthClientId),
                ]
                // Where the OAuth endpoints came from, when not AM's layout under the URL.
                if let discovery = remote.discoveryURL { server["discovery"] = .string(discovery) }
                result["server"] = .object(server)
            }
            // Only with --http, so transcripts without it keep their bytes.
            if let origin = configuration.httpOrigin {
                var http: JSONObject = ["origin": .string(origin), "baseUrl": .string(origin + "/am/")]
                // What clients are told to use (the issuer names it); origin and baseUrl stay where to connect.
                if let url = configuration.publicURL { http["publicUrl"] = .string(url + "/") }
                // The inspector page, where the face serves it (loopback only).
                if let url = Inspector.url(atOrigin: origin) { http["inspector"] = .string(url) }
                result["http"] = .object(http)
            }
            let encoded = EncodedResult(.object(result))
            if framing != nil { helloResult = encoded }
            return encoded
        }
        // A liveness check for hosts (a Jest global setup waiting for the daemon), and the
        // cheapest call there is: what the benchmark compares with the floor.
        register("daemon.ping") { call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return [:]
        }
        register("daemon.shutdown") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            logInfo("shutdown requested by the host")
            server.stopRequested = true
            return .null
        }
    }
}
