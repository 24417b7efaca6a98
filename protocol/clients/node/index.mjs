// ES module face of index.cjs (the client is CommonJS so Jest can require it as it is).
export { spawnBridge, findBinary, EventHub, RPCError, defaultBinary, BRIDGE_METHODS, TOKEN_SYNC_METHODS, EVENTS } from './index.cjs';
