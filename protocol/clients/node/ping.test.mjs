// The Ping SDK's modules through the Node client: TurboModuleRegistry stand-ins calling the
// daemon, createClient answered synchronously, rejections carrying userInfo.type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { spawnBridge } from './index.mjs';

const require = createRequire(import.meta.url);
const { reactNativeMock } = require('./jest.cjs');

const journeyConfig = {
  serverUrl: 'http://localhost:8080/am', realm: 'alpha', clientId: 'ReactNativeOAuthClient',
  discoveryEndpoint: 'http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration',
  redirectUri: 'https://com.example.reactnative.todo/callback', scopes: ['openid', 'profile', 'email'],
};
const { serverUrl, realm, ...oidcConfig } = journeyConfig;

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: a journey through TurboModuleRegistry.get('RNPingJourney')`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const journey = bridge.turboModuleRegistry().get('RNPingJourney');
      assert.equal(bridge.nativeModules().RNPingJourneyClassic, journey, 'the classic fallback is the same module');
      const id = await journey.configureJourney(journeyConfig);
      assert.equal(id, flavor === 'rn-ios' ? id.toUpperCase() : id.toLowerCase());
      const first = await journey.start(id, 'Login', { forceAuth: false, noSession: false });
      assert.equal(first.type, 'ContinueNode');
      const wrong = await journey.next(id, '', { callbacks: [{ type: 'NameCallback', value: 'demo' }, { type: 'PasswordCallback', value: 'x' }] });
      assert.equal(wrong.type, 'ErrorNode');
      assert.equal(wrong.status, flavor === 'rn-ios' ? 401 : undefined);
      await assert.rejects(journey.next(id, '', {}), (error) => error.code === 'JOURNEY_STATE_ERROR'
        && error.userInfo.type === 'state_error' && error.message === `No active ContinueNode found for journey id=${id}`);
      await journey.start(id, 'Login');
      const done = await journey.next(id, '', { callbacks: [{ type: 'NameCallback', value: 'demo' }, { type: 'PasswordCallback', value: 'Ch4ng3it!' }] });
      assert.equal(done.type, 'SuccessNode');
      const session = await journey.getSession(id);
      assert.equal(session.userInfo.preferred_username, 'demo');
      assert.equal(await journey.logout(id), true);
      assert.equal(await journey.getSession(id), null);
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: createClient answers synchronously and later calls wait for it`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const oidc = bridge.turboModuleRegistry().getEnforcing('RNPingOidc');
      const client = oidc.createClient(oidcConfig);
      const web = oidc.createWebClient(client);
      assert.equal(typeof client, 'string');
      assert.deepEqual(await oidc.authorize(web, {}), { type: 'success' });
      assert.equal(await oidc.hasUser(web), true);
      const token = await oidc.token(web);
      assert.ok(token.accessToken && token.idToken && token.refreshToken && token.tokenExpiry);
      assert.equal((await oidc.userinfo(web, false)).email, 'demo@example.com');
      assert.equal(await oidc.logout(web), null);
      assert.equal(await oidc.hasUser(web), false);
      assert.throws(() => oidc.createWebClient('nope'), { message: flavor === 'rn-ios' ? 'No OIDC client found for id nope' : 'Unknown OIDC client id: nope' });
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: the stand-in throws what the daemon rejects, word for word`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const oidc = bridge.pingModules().RNPingOidc;
      const bad = [{}, { clientId: 'c' }, { clientId: 'c', redirectUri: 'r' }, { clientId: 'c', redirectUri: 'r', scopes: ['openid'] },
        { clientId: 'c', redirectUri: 'r', scopes: ['openid'], openId: { authorizationEndpoint: 'a' } }];
      for (const config of bad) {
        const daemon = await bridge.call('RNPingOidc.createClient', [config]).then(() => null, (error) => error);
        const local = (() => { try { oidc.createClient(config); return null; } catch (error) { return error; } })();
        assert.equal(local?.message, daemon?.message, JSON.stringify(config));
        assert.equal(local?.code, daemon?.code, JSON.stringify(config));
      }
    } finally {
      await bridge.close();
    }
  });
}

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: RNPingStorage answers register and configure synchronously, as the daemon does`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const registry = bridge.turboModuleRegistry();
      const storage = registry.get('RNPingStorage');
      assert.equal(bridge.nativeModules().RNPingStorageClassic, storage, 'the classic fallback is the same module');
      const configs = [{}, { account: 'a', cacheable: false, keyAlias: 'k', strongBoxPreferred: true, cacheStrategy: 'cache' },
        { fileName: 'oath.db', databaseName: 'd', oathService: 's', oathRequireBiometrics: true }];
      for (const kind of ['Session', 'Oidc', 'Oath']) {
        for (const config of configs) {
          const id = storage[`register${kind}Storage`](config);
          assert.equal(id, flavor === 'rn-ios' ? id.toUpperCase() : id.toLowerCase());
          const daemon = await bridge.call(`RNPingStorage.register${kind}Storage`, [config]);
          assert.deepEqual(storage[`configure${kind}Storage`](id), await bridge.call(`RNPingStorage.configure${kind}Storage`, [daemon]),
            `${kind} ${JSON.stringify(config)}`);
        }
      }
      const unknown = await bridge.call('RNPingStorage.configureSessionStorage', ['x']).then(() => null, (error) => error);
      assert.throws(() => storage.configureSessionStorage('x'), { message: unknown.message, code: unknown.code });

      // A journey and an OIDC client on registered storages, called at once, as the SDK's JS does.
      const sessionStorageId = storage.registerSessionStorage({ account: 'app', fileName: 'app' });
      const oidcStorageId = storage.registerOidcStorage({ account: 'app', fileName: 'app' });
      const journey = registry.get('RNPingJourney');
      const id = await journey.configureJourney({ ...journeyConfig, sessionStorageId, oidcStorageId });
      await journey.start(id, 'Login');
      await journey.next(id, '', { callbacks: [{ type: 'NameCallback', value: 'demo' }, { type: 'PasswordCallback', value: 'Ch4ng3it!' }] });
      await journey.getSession(id);
      const oidc = registry.get('RNPingOidc');
      const own = oidc.createWebClient(oidc.createClient({ ...oidcConfig, storageId: oidcStorageId }));
      const shared = oidc.createWebClient(oidc.createClient(oidcConfig));
      assert.equal(await oidc.hasUser(own), true);
      assert.equal(await oidc.hasUser(shared), false);
      await assert.rejects(journey.configureJourney({ ...journeyConfig, sessionStorageId: 'nope' }), (error) => error.code === 'JOURNEY_INIT_ERROR'
        && error.userInfo.type === 'argument_error' && error.message === 'No session storage config registered for id=nope');
      if (flavor === 'rn-android') {
        assert.throws(() => oidc.createClient({ ...oidcConfig, storageId: 'nope' }),
          { code: 'IllegalArgumentException', message: 'No storage config registered for id=nope' });
      } else {
        assert.equal(await oidc.hasUser(oidc.createWebClient(oidc.createClient({ ...oidcConfig, storageId: 'nope' }))), false);
      }
    } finally {
      await bridge.close();
    }
  });
}

test('reactNativeMock offers the Ping modules as spy-able objects', () => {
  const rn = reactNativeMock({ flavor: 'rn-ios' });
  const journey = rn.TurboModuleRegistry.get('RNPingJourney');
  assert.equal(rn.NativeModules.RNPingJourneyClassic, journey);
  assert.equal(rn.NativeModules.RNPingOidcClassic, rn.TurboModuleRegistry.get('RNPingOidc'));
  assert.equal(rn.NativeModules.RNPingStorageClassic, rn.TurboModuleRegistry.get('RNPingStorage'));
  assert.equal(rn.TurboModuleRegistry.get('Other'), null);
  assert.ok(Object.getOwnPropertyDescriptor(journey, 'start').writable, 'jest.spyOn replaces own writable properties');
  let seen;
  const fake = { fn: (impl) => { const f = (...a) => { seen = a; return impl(...a); }; return f; } };
  const spied = reactNativeMock({ flavor: 'rn-android', jest: fake });
  assert.throws(() => spied.TurboModuleRegistry.get('RNPingOidc').createClient({}), { code: 'IllegalArgumentException' });
  assert.deepEqual(seen, [{}]);
});
