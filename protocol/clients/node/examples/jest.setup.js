// Jest `setupFilesAfterEnv`: one AuthBridge daemon per test file (each Jest worker runs its own
// files, so every worker has its own daemons), and 'react-native' mocked so that NativeModules
// and NativeEventEmitter are the daemon's. Replace the require path with where AuthBridge lives.
const { spawnBridge } = require('../index.cjs');

beforeAll(async () => {
  globalThis.authbridge = await spawnBridge({ seed: 7, clock: 'virtual' });
});

afterAll(async () => {
  await globalThis.authbridge?.close();
});

// The factory runs when the app first requires 'react-native', possibly before beforeAll has
// spawned the daemon; so every member looks the daemon up when it is called.
jest.mock('react-native', () => {
  const bridge = () => globalThis.authbridge;
  const lazyModule = (name) => new Proxy({}, { get: (_, member) => (...args) => bridge().nativeModules()[name][member](...args) });
  return {
    NativeModules: {
      FRAuthSampleBridge: lazyModule('FRAuthSampleBridge'),
      AuthenticationTokenModule: lazyModule('AuthenticationTokenModule'),
      HydraTokenExchangeModule: lazyModule('HydraTokenExchangeModule'),
    },
    NativeEventEmitter: class {
      constructor(nativeModule) { this.emitter = new (bridge().NativeEventEmitter)(nativeModule); }
      addListener(event, listener) { return this.emitter.addListener(event, listener); }
      removeAllListeners(event) { this.emitter.removeAllListeners(event); }
    },
  };
});
