// A DaVinci sign-on as the Ping SDK's JS does it (@ping-identity/rn-davinci `src/davinci.ts` and
// `src/davinciMethods.ts` over `src/NativeRNPingDavinci.ts`): the module found through
// TurboModuleRegistry (or the classic fallback), configured lazily with the flattened
// `modules.oidc` config, `start()`, `next({collectors: [{key, value}]})` with the form's values
// and the submit button's key, then the user's session. The flows are the embedded PingOne
// environment's built-in ones (docs/davinci.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnBridge, PING_DAVINCI_METHODS } from './index.mjs';

const envId = '8e1a4b2c-7d3f-4e6a-9b5c-1f2d3e4a5b6c';
const oidc = {
  discoveryEndpoint: `http://localhost:8080/${envId}/as/.well-known/openid-configuration`,
  clientId: 'ReactNativeOAuthClient', redirectUri: 'https://com.example.reactnative.todo/callback',
  scopes: ['openid', 'profile'],
};

/** The SDK's `getNativeModule()`: TurboModule first, then the classic bridge module. */
function nativeModule(bridge) {
  return bridge.turboModuleRegistry().get('RNPingDavinci') ?? bridge.nativeModules().RNPingDavinciClassic;
}

/** What `createDaVinciClient({modules: {oidc}})` hands the app: configured on the first call. */
function davinciClient(bridge, config) {
  let id;
  const getId = async () => (id ??= await nativeModule(bridge).configureDaVinci(config));
  return {
    getId,
    start: async () => nativeModule(bridge).start(await getId()),
    next: async (input) => nativeModule(bridge).next(await getId(), input),
    user: async () => nativeModule(bridge).getSession(await getId()),
    userinfo: async () => nativeModule(bridge).userinfo(await getId()),
    logoutUser: async () => nativeModule(bridge).logout(await getId()),
    dispose: async () => nativeModule(bridge).dispose(await getId()),
  };
}

/** The form's values as `useDavinciForm` submits them: each collector's key, the button pressed last. */
function submit(node, values, button) {
  const keys = node.collectors.map((c) => c.key);
  for (const key of [...Object.keys(values), button]) assert.ok(keys.includes(key), `the form has ${key}`);
  return { collectors: [...Object.entries(values).map(([key, value]) => ({ key, value })), { key: button, value: button }] };
}

test('the stand-in lists every method of NativeRNPingDavinci.ts', () => {
  assert.deepEqual(PING_DAVINCI_METHODS, ['configureDaVinci', 'start', 'next', 'getSession', 'refresh', 'revoke', 'userinfo',
    'logout', 'dispose', 'pollDaVinci']);
});

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: a wrong password is an ErrorNode; a new start signs on; the session and logout`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      assert.equal(bridge.nativeModules().RNPingDavinciClassic, nativeModule(bridge), 'the classic fallback is the same module');
      const client = davinciClient(bridge, oidc);
      const form = await client.start();
      assert.equal(form.type, 'ContinueNode');
      assert.equal(form.name, 'Username/Password Form');
      const error = await client.next(submit(form, { username: 'demo', password: 'wrong' }, 'SIGNON'));
      assert.equal(error.type, 'ErrorNode');
      assert.equal(error.status, flavor === 'rn-ios' ? 400 : undefined);
      await assert.rejects(client.next(submit(form, { username: 'demo', password: 'Ch4ng3it!' }, 'SIGNON')),
        (e) => e.code === 'DAVINCI_STATE_ERROR' && e.userInfo.type === 'state_error');
      const again = await client.start();
      const success = await client.next(submit(again, { username: 'demo', password: 'Ch4ng3it!' }, 'SIGNON'));
      assert.equal(success.type, 'SuccessNode');
      const session = await client.user();
      assert.equal(typeof session.accessToken, 'string');
      assert.equal(session.userInfo.preferred_username, 'demo');
      assert.equal((await client.userinfo()).preferred_username, 'demo');
      assert.equal(await client.logoutUser(), null);
      assert.equal(await client.user(), null);
      await client.dispose();
      await assert.rejects(client.start(), (e) => e.code === 'DAVINCI_STATE_ERROR');
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: a bad config rejects with the native text`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      await assert.rejects(nativeModule(bridge).configureDaVinci({ ...oidc, redirectUri: '' }),
        (e) => e.code === 'DAVINCI_CONFIG_ERROR' && e.message === 'Missing required parameter: redirectUri'
          && e.userInfo.type === 'argument_error');
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: sign-on-mfa registers an authenticator app the phone scans, then signs on with its code once`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const client = davinciClient(bridge, { ...oidc, acrValues: 'sign-on-mfa' });
      const signOn = await client.start();
      const choose = await client.next(submit(signOn, { username: 'demo', password: 'Ch4ng3it!' }, 'SIGNON'));
      assert.equal(choose.name, 'Select MFA Device');
      const register = await client.next({ collectors: [{ key: 'ADD_DEVICE', value: 'ADD_DEVICE' }] });
      assert.equal(register.name, 'Register MFA Device');
      const types = register.collectors.find((c) => c.key === 'newDevice');
      assert.deepEqual(types.devices.map((d) => d.type), ['EMAIL', 'SMS', 'TOTP']);
      const pair = await client.next(submit(register, { newDevice: { type: 'TOTP' } }, 'NEXT'));
      assert.equal(pair.name, 'Pair Authenticator App');
      const qr = pair.collectors.find((c) => c.type === 'QR_CODE');
      assert.equal(qr.key, flavor === 'rn-android' ? '' : 'qrCode');
      assert.match(qr.content, /^otpauth:\/\/totp\/PingOne:demo\?secret=/);
      await bridge.emulator.scanOath({ username: 'demo', uri: qr.content });
      const first = await bridge.emulator.oathCode({ username: 'demo' });
      assert.equal((await client.next(submit(pair, { otp: first.code }, 'VERIFY'))).type, 'SuccessNode');
      await client.logoutUser();

      /** A new start to the passcode form of the user's authenticator app. */
      const passcodeForm = async () => {
        const start = await client.start();
        const devices = await client.next(submit(start, { username: 'demo', password: 'Ch4ng3it!' }, 'SIGNON'));
        const device = devices.collectors.find((c) => c.key === 'device');
        assert.deepEqual(device.devices.map((d) => d.type), ['EMAIL', 'SMS', 'TOTP']);
        const passcode = await client.next(submit(devices, { device: { type: 'TOTP' } }, 'NEXT'));
        assert.equal(passcode.name, 'Enter Passcode');
        return passcode;
      };
      await bridge.emulator.advanceClock(30);
      const { code } = await bridge.emulator.oathCode({ username: 'demo' });
      const wrong = await client.next(submit(await passcodeForm(), { otp: code === '123456' ? '654321' : '123456' }, 'VERIFY'));
      assert.equal(wrong.type, 'ErrorNode');
      assert.equal((await client.next(submit(await passcodeForm(), { otp: code }, 'VERIFY'))).type, 'SuccessNode');
      await client.logoutUser();
      const reused = await client.next(submit(await passcodeForm(), { otp: code }, 'VERIFY'));
      assert.equal(reused.type, 'ErrorNode', 'a code works once');
    } finally {
      await bridge.close();
    }
  });
}
