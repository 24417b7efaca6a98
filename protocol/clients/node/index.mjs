// ES module face of index.cjs (the client is CommonJS so Jest can require it as it is).
export {
  spawnBridge, findBinary, PLATFORMS, platformPackage, binaryNotFoundHint, EventHub, RPCError, defaultBinary, BRIDGE_METHODS, TOKEN_SYNC_METHODS, EVENTS,
  PING_JOURNEY_METHODS, PING_OIDC_METHODS, PING_DEVICE_CLIENT_METHODS, PING_BROWSER_METHODS,
} from './index.cjs';
