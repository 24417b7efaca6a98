import Host

/// What a newcomer sees on stderr when driving the daemon by hand (`make run`).
enum Banner {
    static func text(for host: Host) -> String {
        let demo = host.view.server.demoUser
        let credentials = demo.map { "\($0.username) / \($0.password)" } ?? "(none)"
        let username = demo?.username ?? "demo"
        let password = demo?.password ?? ""
        let payload =
            #"{\"callbacks\":[{\"type\":\"NameCallback\",\"input\":[{\"name\":\"IDToken1\",\"value\":\"\#(username)\"}]},{\"type\":\"PasswordCallback\",\"input\":[{\"name\":\"IDToken2\",\"value\":\"\#(password)\"}]}]}"#
        let start = host.configuration.flavor.startMethod
        return """
            AuthBridge \(Host.productVersion): the native side of a ForgeRock/Ping React Native app.
            JSON-RPC 2.0 on stdin/stdout, one JSON request per line; logs on stderr.
            Flavor \(host.configuration.flavor.rawValue) (\(host.configuration.variant.rawValue) bridge), embedded AM (realm \(host.view.server.realm), journeys \(host.view.journeyNames.joined(separator: ", "))).
            Demo user: \(credentials)

            Paste these lines one by one (Ctrl-D ends the session):
            {"jsonrpc":"2.0","id":1,"method":"\(start)"}
            {"jsonrpc":"2.0","id":2,"method":"login"}
            {"jsonrpc":"2.0","id":3,"method":"next","params":["\(payload)"]}
            {"jsonrpc":"2.0","id":4,"method":"getUserInfo"}
            {"jsonrpc":"2.0","id":5,"method":"logout"}

            To see token events, send {"jsonrpc":"2.0","id":0,"method":"tokenSyncReady"} before these
            lines: the login then brings a TOKEN_EVENT. The JS logout() above sends no event (JS asked for
            it); log in again and send {"jsonrpc":"2.0","id":6,"method":"emulator.nativeLogout"} to see a
            LOGOUT_EVENT (the native side logging out on its own). More: docs/token-sync.md.

            Every method, result and error: protocol/README.md. A walk-through: docs/quickstart.md.

            """
    }
}
