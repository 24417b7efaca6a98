// A DaVinci flow's social sign-in and Protect signals as the Ping SDK's JS runs them beside
// @ping-identity/rn-davinci: @ping-identity/rn-external-idp `src/externalIdp.ts`
// (`authorizeForDaVinci(daVinci, {index})`, which passes `daVinci.getId()`) and
// @ping-identity/rn-protect `src/protect.ts` (`collectProtect(daVinci)`), each followed by the
// DaVinci client's `next`, as the SDK's sample app does (`PingSampleApp/ui/davinci/hooks/
// useDaVinciClientPanelController.ts`: `next({collectors: []})` after the IdP, the form's input
// after Protect). The flows are loaded with `emulator.loadDavinciFlow` (docs/davinci.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnBridge } from './index.mjs';

const envId = '8e1a4b2c-7d3f-4e6a-9b5c-1f2d3e4a5b6c';
const oidc = {
  discoveryEndpoint: `http://localhost:8080/${envId}/as/.well-known/openid-configuration`,
  clientId: 'ReactNativeOAuthClient', redirectUri: 'https://com.example.reactnative.todo/callback',
  scopes: ['openid', 'profile', 'email'],
};

const social = {
  name: 'social', start: 'choose',
  nodes: [
    { id: 'choose', form: { name: 'Sign on with', fields: [
      { type: 'SOCIAL_LOGIN_BUTTON', key: 'google', label: 'Google', idpType: 'GOOGLE', idpId: 'google-idp' },
      { type: 'SOCIAL_LOGIN_BUTTON', key: 'apple', label: 'Apple', idpType: 'APPLE', idpId: 'apple-idp' },
      { type: 'SOCIAL_LOGIN_BUTTON', key: 'github', label: 'GitHub', idpType: 'GITHUB', idpId: 'github-idp' }] },
      next: { google: 'done', apple: 'done', github: 'done' } },
    { id: 'done', connector: 'pingOneAuthenticationConnector', capability: 'returnSuccessResponseRedirect' },
  ],
};

const risk = {
  name: 'risk', start: 'signals',
  nodes: [
    { id: 'signals', form: { name: 'Signals', fields: [
      { type: 'PROTECT', key: 'riskSignals', behavioralDataCollection: true },
      { type: 'SUBMIT_BUTTON', key: 'GO', label: 'Go' }] },
      next: { GO: 'seen' } },
    { id: 'seen', form: { name: 'What PingOne received', fields: [{ type: 'TEXT', key: 'riskSignals', label: 'Signals' }] } },
  ],
};

function turbo(bridge, name) {
  return bridge.turboModuleRegistry().get(name) ?? bridge.nativeModules()[`${name}Classic`];
}

/** `createDaVinciClient({modules: {oidc}})`: configured on the first call. */
function davinciClient(bridge, config) {
  let id;
  const getId = async () => (id ??= await turbo(bridge, 'RNPingDavinci').configureDaVinci(config));
  return {
    getId,
    start: async () => turbo(bridge, 'RNPingDavinci').start(await getId()),
    next: async (input) => turbo(bridge, 'RNPingDavinci').next(await getId(), input),
    userinfo: async () => turbo(bridge, 'RNPingDavinci').userinfo(await getId()),
  };
}

/** `createExternalIdpClient({redirectUri})`'s DaVinci method. */
function externalIdpClient(bridge, redirectUri = '') {
  return {
    authorizeForDaVinci: async (daVinci, options = {}) =>
      turbo(bridge, 'RNPingExternalIdp').authorizeForDaVinci(await daVinci.getId(), options, { redirectUri: redirectUri.trim() }),
  };
}

const collectProtect = async (bridge, daVinci) => turbo(bridge, 'RNPingProtect').collectForDaVinci(await daVinci.getId(), {}, {});

/** The sample app's `onIdpAuthorize`: the button's index among the IdP fields, then `next({collectors: []})`. */
async function signOnWith(bridge, flavor, idpId) {
  const daVinci = davinciClient(bridge, { ...oidc, acrValues: 'social' });
  const form = await daVinci.start();
  assert.equal(form.type, 'ContinueNode');
  // The sample app's index: the button's place among the form's SOCIAL_LOGIN_BUTTON collectors (keyed by `idpId`).
  const idps = form.collectors.filter((c) => c.type === 'SOCIAL_LOGIN_BUTTON');
  assert.equal(idps.length, 3);
  const index = idps.findIndex((c) => c.key === idpId);
  assert.ok(index >= 0, `the form shows ${idpId}`);
  assert.equal(await externalIdpClient(bridge).authorizeForDaVinci(daVinci, { index }), null);
  return { daVinci, node: await daVinci.next({ collectors: [] }) };
}

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: a Google button signs the provider's user on through next(), then Apple`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      assert.deepEqual(await bridge.emulator.loadDavinciFlow(social), { loaded: ['social'] });
      const google = await signOnWith(bridge, flavor, 'google-idp');
      assert.equal(google.node.type, 'SuccessNode');
      const info = await google.daVinci.userinfo();
      assert.equal(info.preferred_username, 'sam.social@gmail.com');
      assert.equal(info.email, 'sam.social@gmail.com');
      // Apple: native on iOS, a browser and its continueToken on Android; Apple's test account.
      const apple = await signOnWith(bridge, flavor, 'apple-idp');
      assert.equal(apple.node.type, 'SuccessNode');
      assert.equal((await apple.daVinci.userinfo()).email, 'sam.social@privaterelay.appleid.com');
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: a provider nobody serves is a cancelled sign-in, and next() submits the form as it was`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      await bridge.emulator.loadDavinciFlow(social);
      const daVinci = davinciClient(bridge, { ...oidc, acrValues: 'social' });
      await daVinci.start();
      const id = await daVinci.getId();
      const idp = externalIdpClient(bridge);
      await assert.rejects(idp.authorizeForDaVinci(daVinci, { index: 2 }), (error) =>
        error.code === 'EXTERNAL_IDP_CANCELLED' && error.userInfo.type === (flavor === 'rn-ios' ? 'auth_error' : 'internal_error'));
      await assert.rejects(idp.authorizeForDaVinci(daVinci, { index: 3 }), (error) =>
        error.code === 'EXTERNAL_IDP_CALLBACK_NOT_FOUND'
        && error.message === `No active IdP collector found for DaVinci ${id} at index 3.`);
      const again = await daVinci.next({ collectors: [] });
      assert.notEqual(again.type, 'SuccessNode');
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: collectProtect fills the PROTECT field, which the flow receives on next()`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      assert.deepEqual(await bridge.emulator.loadDavinciFlow(risk), { loaded: ['risk'] });
      const protect = turbo(bridge, 'RNPingProtect');
      assert.equal(await protect.initialize({ envId: 'protect-env', isBehavioralDataCollection: false }, {}), null);
      const daVinci = davinciClient(bridge, { ...oidc, acrValues: 'risk' });
      const form = await daVinci.start();
      assert.deepEqual(form.collectors.map((c) => c.type), ['PROTECT', 'SUBMIT_BUTTON']);
      assert.equal(await collectProtect(bridge, daVinci), null);
      const seen = await daVinci.next({ collectors: [{ key: 'GO', value: 'GO' }] });
      assert.equal(seen.name, 'What PingOne received');
      const value = seen.collectors.find((c) => c.key === 'riskSignals').value;
      const signals = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
      assert.deepEqual(signals, {
        sdk: 'PingOneSignals', platform: flavor === 'rn-ios' ? 'ios' : 'android',
        behavioralDataCollection: true, envId: 'protect-env',
      });
    } finally {
      await bridge.close();
    }
  });
}
