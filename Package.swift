// swift-tools-version: 6.0
import PackageDescription

// Layers point one way (DESIGN.md §2): authbridge → BridgeSDK → IdentityServer ← EmbeddedAM,
// authbridge → JSONRPC. AuthBridgeCore holds the small shared pieces (JSON, crypto, clock, RNG).
let package = Package(
    name: "AuthBridge",
    products: [
        .executable(name: "authbridge", targets: ["authbridge"]),
    ],
    targets: [
        .target(name: "AuthBridgeCore"),
        .target(name: "JSONRPC", dependencies: ["AuthBridgeCore"]),
        .target(name: "IdentityServer", dependencies: ["AuthBridgeCore"]),
        .target(name: "EmbeddedAM", dependencies: ["AuthBridgeCore", "IdentityServer"]),
        .target(name: "BridgeSDK", dependencies: ["AuthBridgeCore", "IdentityServer"]),
        .executableTarget(
            name: "authbridge",
            dependencies: ["AuthBridgeCore", "JSONRPC", "IdentityServer", "EmbeddedAM", "BridgeSDK"]
        ),
        .testTarget(name: "AuthBridgeCoreTests", dependencies: ["AuthBridgeCore"]),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "AuthBridgeCore"]),
        .testTarget(name: "EmbeddedAMTests", dependencies: ["EmbeddedAM", "IdentityServer", "AuthBridgeCore"]),
        .testTarget(
            name: "BridgeSDKTests",
            dependencies: ["BridgeSDK", "EmbeddedAM", "IdentityServer", "AuthBridgeCore"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["AuthBridgeCore"]),
    ]
)
