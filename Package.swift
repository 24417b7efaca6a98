// swift-tools-version: 6.0
import PackageDescription

// One target per layer; imports point down (docs/architecture.md):
// authbridge → Daemon (options, wiring) → RPCFace, HTTPFace, RemoteConfig;
// RPCFace → Host → NativeModules → NativeSDK → IdentityServer ← EmbeddedAM; RPCFace → JSONRPC;
// NativeModules, Host → EmulatedDevice (the phone, beside the SDK; it imports only Core);
// Host → StateStore; HTTPFace → AMHTTP → HTTPServer, IdentityServer; NativeModules, RPCFace →
// IdentityServer (AM's vocabulary, `CallbackType`);
// authbridge-remote → Daemon, RemoteAM → IdentityServer, CCurl (libcurl, loaded at run time: only
// there). No product's target imports Foundation (TestSupport does, for the test processes).
// AuthBridgeCore (JSON, crypto, clock, RNG, log, fd I/O) is under everything, over CSHA256
// (SHA-256 on the CPU's SHA extensions). TestSupport holds the harnesses the test targets share.
let package = Package(
    name: "AuthBridge",
    products: [
        .executable(name: "authbridge", targets: ["authbridge"]),
        .executable(name: "authbridge-remote", targets: ["authbridge-remote"]),
    ],
    targets: [
        // SHA-256's compression on the CPU's SHA extensions (x86-64 SHA-NI), C of our own with the
        // instructions enabled on that one function; AuthBridgeCore's SHA256 calls it only after
        // CPUID says the CPU has them, and runs its Swift rounds otherwise.
        .target(name: "CSHA256"),
        // Optimized in debug builds too: the emulated Android phone makes 2048-bit RSA keys (a
        // prime search of dozens of modular exponentiations), which -Onone makes take seconds.
        .target(
            name: "AuthBridgeCore", dependencies: ["CSHA256"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "StateStore", dependencies: ["AuthBridgeCore"]),
        .target(name: "JSONRPC", dependencies: ["AuthBridgeCore"]),
        .target(name: "HTTPServer", dependencies: ["AuthBridgeCore"]),
        .target(name: "IdentityServer", dependencies: ["AuthBridgeCore"]),
        .target(name: "EmbeddedAM", dependencies: ["AuthBridgeCore", "IdentityServer"]),
        // PingOne's face of the embedded server: DaVinci flows as data and /{envId}/as/ (docs/davinci.md).
        .target(name: "PingOne", dependencies: ["AuthBridgeCore", "IdentityServer", "EmbeddedAM"]),
        .target(name: "AMHTTP", dependencies: ["AuthBridgeCore", "HTTPServer", "IdentityServer"]),
        // The config readers are Foundation-free: the default binary checks remote options itself.
        .target(name: "RemoteConfig", dependencies: ["AuthBridgeCore", "IdentityServer"]),
        // The system's libcurl, loaded at run time (no curl headers needed): RemoteAM's HTTP client.
        .target(name: "CCurl"),
        // A real tenant over libcurl (URL and cookie parsing of its own, no Foundation): only
        // authbridge-remote links it, so the default binary stays fully static (docs/remote.md).
        .target(name: "RemoteAM", dependencies: ["AuthBridgeCore", "IdentityServer", "CCurl"]),
        .target(name: "NativeSDK", dependencies: ["AuthBridgeCore", "IdentityServer"]),
        // The emulated device: a test user's phone and its software authenticators, a party of its
        // own that meets the server only through what real ones exchange.
        .target(name: "EmulatedDevice", dependencies: ["AuthBridgeCore"]),
        .target(
            name: "NativeModules", dependencies: ["AuthBridgeCore", "IdentityServer", "NativeSDK", "EmulatedDevice"]),
        .target(
            name: "Host",
            dependencies: [
                "AuthBridgeCore", "StateStore", "IdentityServer", "EmbeddedAM", "NativeSDK", "NativeModules",
                "EmulatedDevice",
                "PingOne",
            ]
        ),
        .target(
            name: "RPCFace",
            dependencies: [
                "AuthBridgeCore", "JSONRPC", "IdentityServer", "Host", "NativeModules", "EmulatedDevice", "Inspector",
            ]),
        .target(
            name: "AdminHTTP", dependencies: ["AuthBridgeCore", "HTTPServer", "Host", "EmbeddedAM", "EmulatedDevice"]),
        .target(
            name: "Inspector",
            dependencies: ["AuthBridgeCore", "HTTPServer", "Host", "EmbeddedAM", "EmulatedDevice", "AdminHTTP"]),
        .target(
            name: "HTTPFace",
            dependencies: [
                "AuthBridgeCore", "HTTPServer", "AMHTTP", "AdminHTTP", "Host", "IdentityServer",
                "Inspector",
            ]),
        .target(
            name: "Daemon",
            dependencies: [
                "AuthBridgeCore", "JSONRPC", "Host", "RPCFace", "HTTPServer", "HTTPFace", "RemoteConfig", "Inspector",
            ]),
        .executableTarget(name: "authbridge", dependencies: ["Daemon"]),
        .executableTarget(name: "authbridge-remote", dependencies: ["Daemon", "Host", "RemoteAM"]),
        .target(
            name: "TestSupport",
            dependencies: ["AuthBridgeCore", "Host", "NativeModules", "NativeSDK", "EmbeddedAM", "JSONRPC", "RPCFace"]
        ),
        .testTarget(name: "AuthBridgeCoreTests", dependencies: ["AuthBridgeCore"]),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "AuthBridgeCore"]),
        .testTarget(name: "StateStoreTests", dependencies: ["StateStore", "AuthBridgeCore"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "AuthBridgeCore"]),
        .testTarget(name: "AMHTTPTests", dependencies: ["AMHTTP", "HTTPServer", "IdentityServer", "AuthBridgeCore"]),
        .testTarget(name: "EmulatedDeviceTests", dependencies: ["EmulatedDevice", "AuthBridgeCore"]),
        .testTarget(
            name: "EmbeddedAMTests", dependencies: ["EmbeddedAM", "EmulatedDevice", "IdentityServer", "AuthBridgeCore"]),
        .testTarget(
            name: "NativeSDKTests", dependencies: ["NativeSDK", "IdentityServer", "AuthBridgeCore", "TestSupport"]),
        .testTarget(
            name: "NativeModulesTests",
            dependencies: ["NativeModules", "NativeSDK", "EmbeddedAM", "AuthBridgeCore", "TestSupport", "Host"]
        ),
        .testTarget(
            name: "HostTests",
            dependencies: [
                "Host", "RPCFace", "HTTPFace", "HTTPServer", "JSONRPC", "NativeModules", "NativeSDK", "EmbeddedAM",
                "AuthBridgeCore", "TestSupport",
                "AdminHTTP",
                "Inspector",
            ]
        ),
        .testTarget(
            name: "PingOneTests",
            dependencies: ["PingOne", "EmbeddedAM", "EmulatedDevice", "IdentityServer", "AuthBridgeCore"]),
        .testTarget(name: "EndToEndTests", dependencies: ["AuthBridgeCore", "TestSupport"]),
        .testTarget(
            name: "DaemonTests", dependencies: ["Daemon", "Host", "HTTPServer", "AuthBridgeCore", "TestSupport"]),
        .testTarget(
            name: "RemoteAMTests", dependencies: ["RemoteAM", "RemoteConfig", "IdentityServer", "AuthBridgeCore"]),
    ]
)
