// The ForgeRock guide's own JavaScript ("build a protected app with React Native", part one: the
// form, the user info effect, the logout screen) against `--bridge guide`, through the client as
// a Jest suite would use it. The guide's lines are kept as the guide writes them; only the React
// state setters are replaced by plain variables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawnBridge } from './index.mjs';

/**
 * A stand-in for `FRStep` from `@forgerock/javascript-sdk` (no npm registry here), with the part
 * of its API the guide's components use: `type`, `payload`, `callbacks[].getType()`,
 * `getPrompt()`, `setInputValue()`, `payload.input[0].name`.
 */
class FRStep {
  constructor(payload) {
    this.type = 'Step';
    this.payload = payload;
    this.callbacks = (payload.callbacks ?? []).map((callback) => ({
      payload: callback,
      getType: () => callback.type,
      getPrompt: () => callback.output?.find((o) => o.name === 'prompt')?.value,
      setInputValue: (value, index = 0) => { callback.input[index].value = value; },
    }));
  }
}

test("the guide's form, user info and logout run unchanged against its bridge", async () => {
  const bridge = await spawnBridge({ bridge: 'guide', seed: 7, clock: 'virtual' });
  try {
    assert.equal(bridge.hello.bridge, 'guide');
    const { FRAuthSampleBridge } = bridge.nativeModules();

    // src/index.js
    await FRAuthSampleBridge.start();

    // src/components/journey/form.js: getStep()
    await FRAuthSampleBridge.logout();
    const dataString = await FRAuthSampleBridge.login();
    const data = JSON.parse(dataString);
    const step = new FRStep(data);

    // text.js / password.js: what the user types
    for (const cb of step.callbacks) {
      if (cb.getType() === 'NameCallback') cb.setInputValue('demo');
      if (cb.getType() === 'PasswordCallback') cb.setInputValue('Ch4ng3it!');
    }

    // The Sign In button
    let result;
    const response = await FRAuthSampleBridge.next(JSON.stringify(step.payload));
    if (response.type === 'LoginSuccess') {
      const accessInfo = JSON.parse(response.accessInfo);
      result = { accessInfo, message: 'Successfully logged in.', type: 'LoginSuccess' };
    } else {
      result = { message: 'There has been a login failure.', type: 'LoginFailure' };
    }
    assert.equal(result.type, 'LoginSuccess');
    assert.equal(typeof result.accessInfo.value, 'string');
    assert.equal(result.accessInfo.tokenType, 'Bearer');

    // getUserInfo() in the isAuthenticated effect
    const userInfo = await FRAuthSampleBridge.getUserInfo();
    assert.equal(userInfo.name, 'Demo User');
    assert.equal(userInfo.email, 'demo@example.com');

    // src/screens/logout.js
    await FRAuthSampleBridge.logout();
    await assert.rejects(FRAuthSampleBridge.getUserInfo(), { code: 'error' });
  } finally {
    await bridge.close();
  }
});

test("a wrong password is the guide's login failure, and what it never implemented says so", async () => {
  const bridge = await spawnBridge({ bridge: 'guide', seed: 7, clock: 'virtual' });
  try {
    const { FRAuthSampleBridge } = bridge.nativeModules();
    await FRAuthSampleBridge.start();
    const step = new FRStep(JSON.parse(await FRAuthSampleBridge.login()));
    step.callbacks[0].setInputValue('demo');
    step.callbacks[1].setInputValue('not the password');
    await assert.rejects(FRAuthSampleBridge.next(JSON.stringify(step.payload)), { code: 'Error', message: 'LoginFailure' });
    await assert.rejects(FRAuthSampleBridge.register(), (error) => error.code === -32002 && /--bridge sample/.test(error.data.reason));
    await assert.rejects(FRAuthSampleBridge.getAccessToken(), { code: -32002 });
  } finally {
    await bridge.close();
  }
});

test('--bridge guide is refused with another flavor', async () => {
  await assert.rejects(spawnBridge({ bridge: 'guide', flavor: 'rn-android' }), /--flavor rn-ios/);
});
