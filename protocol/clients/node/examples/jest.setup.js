// Jest `setupFilesAfterEnv`: a fresh AuthBridge daemon for each test file (one at a time per
// worker), and 'react-native' mocked so that NativeModules and NativeEventEmitter are the
// daemon's. Copy it as it is; `@authbridge/client` is the Node client package.
const { setupAuthBridge } = require('@authbridge/client/jest');

setupAuthBridge({ seed: 7, clock: 'virtual' });

// `virtual: true` because this example has no react-native installed; harmless in an app.
jest.mock('react-native', () => require('@authbridge/client/jest').reactNativeMock({ flavor: 'rn-ios' }), { virtual: true });
