// RNPingDeviceClient and RNPingBrowser through the Node client's stand-ins, as the SDK's JS calls
// them: a device the old bridge's app registered, listed, renamed and deleted by the RNPing app;
// the browser's synchronous configure/reset and its open; Android's OIDC user kept after revoke.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { spawnBridge } from './index.mjs';

const mfa = fileURLToPath(new URL('../../../docs/examples/am-exports/mfa', import.meta.url));
const credentials = JSON.stringify({ callbacks: [
  { type: 'NameCallback', input: [{ name: 'IDToken1', value: 'demo' }] },
  { type: 'PasswordCallback', input: [{ name: 'IDToken2', value: 'Ch4ng3it!' }] }] });

/** Registers an OATH device for demo through the old bridge, whose app answers natively. */
async function registerOath(bridge) {
  await bridge.call('start');
  const first = JSON.parse(await bridge.call('login'));
  const qr = JSON.parse(await bridge.call('next', [JSON.stringify({ ...first, ...JSON.parse(credentials) })]));
  const code = JSON.parse(await bridge.call('next', [JSON.stringify(qr)]));
  const done = await bridge.call('next', [JSON.stringify(code)]);
  assert.equal(done.type, 'LoginSuccess');
}

/** Signs in through RNPingJourney and answers the journey's SSO token. */
async function ssoToken(modules) {
  const journey = modules.RNPingJourney;
  const id = await journey.configureJourney({ serverUrl: 'http://localhost:8080/am', realm: 'alpha' });
  await journey.start(id, 'Login');
  const done = await journey.next(id, '', { callbacks: [{ type: 'NameCallback', value: 'demo' }, { type: 'PasswordCallback', value: 'Ch4ng3it!' }] });
  return done.input.tokenId;
}

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: the RNPing app manages the device the old bridge's app registered`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor, args: ['--journeys', mfa, '--auth-service', 'oath_registration', '--callbacks', 'complete'] });
    try {
      await registerOath(bridge);
      const devices = bridge.turboModuleRegistry().get('RNPingDeviceClient');
      assert.equal(bridge.nativeModules().RNPingDeviceClientClassic, devices);
      const handle = await devices.create({ serverUrl: 'http://localhost:8080/am', ssoToken: await ssoToken(bridge.pingModules()), realm: 'alpha', cookieName: 'iPlanetDirectoryPro' });
      const { result: [oath] } = await devices.get(handle, 'oath');
      assert.equal(oath.deviceName, 'OATH Device');
      assert.deepEqual(Object.keys(oath).sort(), ['createdDate', 'deviceName', 'id', 'lastAccessDate', 'uuid']);
      assert.deepEqual(await devices.update(handle, 'oath', { ...oath, deviceName: 'Work phone' }), { result: { ...oath, deviceName: 'Work phone' } });
      assert.equal((await bridge.emulator.devices('demo')).registered.oath[0].deviceName, 'Work phone');
      assert.deepEqual(await devices.deleteDevice(handle, 'oath', oath), { result: oath });
      assert.deepEqual(await devices.get(handle, 'oath'), { result: [] });
      await assert.rejects(devices.deleteDevice(handle, 'oath', oath), (error) => (flavor === 'rn-ios'
        ? error.code === 'DEVICE_CLIENT_NOT_FOUND' && error.userInfo.type === 'network_error' && error.userInfo.status === 404
        : error.code === 'DEVICE_CLIENT_ERROR' && error.userInfo.type === 'unknown_error' && error.message.startsWith('Failed to delete device: 404 - ')));
      assert.equal(await devices.dispose(handle), null);
      await assert.rejects(devices.get(handle, 'oath'), { code: 'DEVICE_CLIENT_HANDLE_NOT_FOUND' });
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: the browser's configure and reset answer synchronously; open signs in at AM`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const browser = bridge.nativeModules().RNPingBrowserClassic;
      assert.equal(bridge.turboModuleRegistry().get('RNPingBrowser'), browser);
      assert.equal(browser.configure({ customTabs: { showTitle: true } }), undefined);
      assert.throws(() => browser.configure('dark'), TypeError);
      assert.equal(browser.reset(), undefined);
      const redirect = 'https://com.example.reactnative.todo/callback';
      const url = 'http://localhost:8080/am/oauth2/realms/root/realms/alpha/authorize?client_id=ReactNativeOAuthClient'
        + `&redirect_uri=${encodeURIComponent(redirect)}&response_type=code&scope=openid&state=s1`
        + '&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256';
      const result = await browser.open(url, { callbackUrlScheme: 'https' });
      assert.equal(result.type, 'success');
      assert.match(result.url, /^https:\/\/com\.example\.reactnative\.todo\/callback\?code=[^&]+&.*state=s1/);
      assert.deepEqual(await browser.open('https://example.com/', { callbackUrlScheme: 'https' }), { type: 'cancel' });
      await assert.rejects(browser.open(url, { callbackUrlScheme: '' }), (error) => error.code === 'BROWSER_OPEN_ERROR'
        && error.userInfo.type === 'argument_error' && error.message === 'callbackUrlScheme is required');
    } finally {
      await bridge.close();
    }
  });
}

test('rn-android: a web client keeps its user after revoke until logout, as the SDK caches it', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor: 'rn-android' });
  try {
    const oidc = bridge.turboModuleRegistry().get('RNPingOidc');
    const web = oidc.createWebClient(oidc.createClient({
      clientId: 'ReactNativeOAuthClient', redirectUri: 'https://com.example.reactnative.todo/callback', scopes: ['openid'],
      discoveryEndpoint: 'http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration' }));
    await oidc.authorize(web, {});
    assert.equal(await oidc.revoke(web), null);
    assert.equal(await oidc.hasUser(web), true);
    assert.equal(await oidc.logout(web), null);
    await assert.rejects(oidc.logout(web), { code: 'OIDC_LOGOUT_ERROR', message: 'No authenticated user is available for this OIDC web client' });
  } finally {
    await bridge.close();
  }
});
