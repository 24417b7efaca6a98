// Faults on purpose over stdio (docs/faults.md): each kind as the sample bridge's login and the
// Ping modules see it through the Node client, and everything working again once a fault is used up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnBridge } from './index.mjs';

const journeyConfig = {
  serverUrl: 'http://localhost:8080/am', realm: 'alpha', clientId: 'ReactNativeOAuthClient',
  discoveryEndpoint: 'http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration',
  redirectUri: 'https://com.example.reactnative.todo/callback', scopes: ['openid', 'profile', 'email'],
};
const { serverUrl, realm, ...oidcConfig } = journeyConfig;

const TEXTS = {
  // The platform's HTTP stack's texts; a status is AM's body, whose message iOS's bridge passes on
  // and Android's passes whole; RNPingOidc.authorize's failure type as each platform's mapper gives it.
  'rn-ios': {
    drop: 'The network connection was lost.', timeout: 'The request timed out.', status: 'Service Unavailable',
    authorize: 'unknown_error',
  },
  'rn-android': {
    drop: 'unexpected end of stream', timeout: 'timeout',
    status: '{"code":503,"reason":"Service Unavailable","message":"Service Unavailable"}', authorize: 'auth_error',
  },
};

async function signIn(bridge) {
  const step = JSON.parse(await bridge.login());
  step.callbacks[0].input[0].value = 'demo';
  step.callbacks[1].input[0].value = 'Ch4ng3it!';
  return bridge.next(JSON.stringify(step));
}

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: each fault kind fails the bridge's login, then login works again`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      await bridge.start();
      const set = await bridge.emulator.fault({ operation: 'authenticate', kind: 'status', status: 503 });
      assert.deepEqual(set, { id: 'fault-1', operation: 'authenticate', kind: 'status', status: 503, remaining: 1, untilCleared: false, hits: 0 });
      await assert.rejects(bridge.login(), { message: TEXTS[flavor].status });
      await bridge.emulator.fault({ operation: 'authenticate', kind: 'drop' });
      await assert.rejects(bridge.login(), { message: TEXTS[flavor].drop });
      await bridge.emulator.fault({ operation: 'authenticate', kind: 'timeout', seconds: 0.2 });
      await assert.rejects(bridge.login(), { message: TEXTS[flavor].timeout });
      await bridge.emulator.fault({ operation: 'authenticate', kind: 'latency', seconds: 0.2 });
      assert.equal(JSON.parse(await bridge.login()).callbacks[0].type, 'NameCallback');
      assert.deepEqual(await bridge.emulator.faults(), { faults: [] });
      assert.equal((await signIn(bridge)).type, 'LoginSuccess');
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: RNPingJourney and RNPingOidc see faults through the Ping SDK's own mapping`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const journey = bridge.turboModuleRegistry().get('RNPingJourney');
      const id = await journey.configureJourney(journeyConfig);
      await bridge.emulator.fault({ operation: 'authenticate', kind: 'drop' });
      assert.deepEqual(await journey.start(id, 'Login'), { type: 'FailureNode', message: TEXTS[flavor].drop, cause: TEXTS[flavor].drop });
      await bridge.emulator.fault({ operation: 'authenticate', kind: 'status', status: 401, message: 'Nope' });
      const refused = await journey.start(id, 'Login');
      assert.equal(refused.type, 'ErrorNode');
      assert.equal(refused.message, 'Nope');
      assert.equal((await journey.start(id, 'Login')).type, 'ContinueNode');

      const oidc = bridge.turboModuleRegistry().getEnforcing('RNPingOidc');
      const web = oidc.createWebClient(oidc.createClient(oidcConfig));
      await bridge.emulator.fault({ operation: 'token', kind: 'timeout', seconds: 0.1 });
      await assert.rejects(oidc.authorize(web, {}), (error) => error.code === 'OIDC_AUTHORIZE_ERROR'
        && error.userInfo.type === TEXTS[flavor].authorize && error.message === TEXTS[flavor].timeout);
      assert.deepEqual(await oidc.authorize(web, {}), { type: 'success' });
    } finally {
      await bridge.close();
    }
  });
}

const envId = '8e1a4b2c-7d3f-4e6a-9b5c-1f2d3e4a5b6c';
const davinciConfig = {
  discoveryEndpoint: `http://localhost:8080/${envId}/as/.well-known/openid-configuration`,
  clientId: 'ReactNativeOAuthClient', redirectUri: 'https://com.example.reactnative.todo/callback',
  scopes: ['openid', 'profile'],
};
const signOnInput = { collectors: [{ key: 'username', value: 'demo' }, { key: 'password', value: 'Ch4ng3it!' }, { key: 'SIGNON', value: 'SIGNON' }] };

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: RNPingDavinci's start and next see PingOne faults as the platform's DaVinci module shows them`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const davinci = bridge.turboModuleRegistry().getEnforcing('RNPingDavinci');
      const id = await davinci.configureDaVinci(davinciConfig);
      const set = await bridge.emulator.fault({ operation: 'pingOneAuthorize', kind: 'drop' });
      assert.equal(set.operation, 'pingOneAuthorize');
      assert.deepEqual(await davinci.start(id), { type: 'FailureNode', message: TEXTS[flavor].drop, cause: TEXTS[flavor].drop });
      await bridge.emulator.fault({ operation: 'pingOneAuthorize', kind: 'timeout', seconds: 0.1 });
      assert.equal((await davinci.start(id)).message, TEXTS[flavor].timeout);
      assert.equal((await davinci.start(id)).type, 'ContinueNode');
      await bridge.emulator.fault({ operation: 'pingOneContinue', kind: 'status', status: 503 });
      const failed = await davinci.next(id, signOnInput);
      assert.equal(failed.type, 'FailureNode');
      if (flavor === 'rn-ios') assert.equal(failed.status, 503);
      else assert.equal(failed.message, '{"code":"UNEXPECTED_SERVER_ERROR","message":"Service Unavailable"}');
      assert.equal((await davinci.start(id)).type, 'ContinueNode');
      await bridge.emulator.fault({ operation: 'pingOneContinue', kind: 'status', status: 400, message: 'Nope' });
      const refused = await davinci.next(id, signOnInput);
      assert.equal(refused.type, 'ErrorNode');
      assert.equal(refused.message, 'Nope');
      assert.equal((await davinci.start(id)).type, 'ContinueNode');
      await bridge.emulator.fault({ operation: 'pingOneContinue', kind: 'latency', seconds: 0.1 });
      assert.equal((await davinci.next(id, signOnInput)).type, 'SuccessNode');
      assert.deepEqual(await bridge.emulator.faults(), { faults: [] });
      assert.ok((await davinci.getSession(id)).accessToken);
    } finally {
      await bridge.close();
    }
  });
}

test('a spec naming an unknown route or operation is refused, listing the valid ones; an unknown id too', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    await assert.rejects(bridge.emulator.fault({ route: 'token', kind: 'drop' }), (error) => error.code === -32602
      && error.data.param === 'route' && error.message.includes('(routes: authenticate, sessions, serverInfo, authorize, accessToken,'));
    await assert.rejects(bridge.emulator.fault({ operation: 'login', kind: 'drop' }), (error) => error.data.param === 'operation'
      && error.message.includes('(operations: authenticate, authorize, token, userInfo,')
      && error.message.includes('pushMessage, pingOneAuthorize, pingOneContinue,'));
    await assert.rejects(bridge.emulator.fault({ operation: 'token', kind: 'latency' }), (error) => error.data.param === 'seconds');
    await assert.rejects(bridge.emulator.clearFaults('fault-7'), (error) => error.data.param === 'id');
    assert.deepEqual(await bridge.emulator.faults(), { faults: [] });
  } finally {
    await bridge.close();
  }
});

test('a fault until cleared hits every request; clearing one leaves the others', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    await bridge.start();
    await signIn(bridge);
    await bridge.emulator.fault({ operation: 'userInfo', kind: 'status', status: 500, untilCleared: true });
    await bridge.emulator.fault({ route: 'jwks', kind: 'drop', count: 3 });
    for (let i = 0; i < 3; i += 1) await assert.rejects(bridge.getUserInfo(), { message: 'Internal Server Error' });
    const { faults } = await bridge.emulator.faults();
    assert.deepEqual(faults.map((f) => [f.id, f.hits, f.remaining]), [['fault-1', 3, null], ['fault-2', 0, 3]]);
    assert.deepEqual(await bridge.emulator.clearFaults('fault-1'), { cleared: ['fault-1'] });
    assert.ok(await bridge.getUserInfo());
    assert.deepEqual(await bridge.emulator.clearFaults(), { cleared: ['fault-2'] });
  } finally {
    await bridge.close();
  }
});
