// Which sign-off endpoint each SDK generation reaches when the tenant's discovery document lists
// two: the Ping SDK's OIDC client (RNPingJourney's logout, RNPingOidc's logout) goes to
// `end_session_endpoint`, as ping-ios-sdk's OpenIdConfiguration and both journey modules' signOff
// read it; the ForgeRock SDK's sign-off would take `ping_end_idp_session_endpoint` (NativeSDK's
// and RemoteAM's unit tests). The tenant is a second authbridge (--http, --public-url); the
// document is its own with `ping_end_idp_session_endpoint` added under another host name and
// path, both of which the tenant serves, so the trace shows which one each call took. The trace
// goes to a file (--trace), written before each response, so it is complete when one arrives (on
// stderr it could be read after the response).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CLIENT_ID, REDIRECT_URI, startDaemon } from '../http/support.mjs';
import { bridgeTo, freePort } from './support.mjs';

const WELL_KNOWN = 'oauth2/realms/root/realms/alpha/.well-known/openid-configuration';
const CREDENTIALS = { callbacks: [{ type: 'NameCallback', value: 'demo' }, { type: 'PasswordCallback', value: 'Ch4ng3it!' }] };

let tenant;
let serverURL;
let document;
let discovery;
let fake;
before(async () => {
  const port = await freePort();
  tenant = await startDaemon(['--http', `127.0.0.1:${port}`, '--public-url', `http://localhost:${port}/am`, '--clock', 'virtual']);
  serverURL = `http://127.0.0.1:${port}/am`;
  const own = await (await fetch(`${serverURL}/${WELL_KNOWN}`)).json();
  document = { ...own, ping_end_idp_session_endpoint: `${serverURL}/oauth2/alpha/connect/endSession` };
  assert.notEqual(document.end_session_endpoint, document.ping_end_idp_session_endpoint);
  fake = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(document));
  });
  await new Promise((resolve) => fake.listen(0, '127.0.0.1', resolve));
  discovery = `http://127.0.0.1:${fake.address().port}/${WELL_KNOWN}`;
});
after(() => {
  tenant?.close();
  fake?.close();
});

/** The URLs the bridge's trace shows it calling for an end session, in order. */
function signOffs(traceFile) {
  const calls = readFileSync(traceFile, 'utf8').match(/HTTP GET \S+ → \d+/g) ?? [];
  return calls.map((line) => line.split(' ')[2]).filter((url) => url.includes('/connect/endSession'))
    .map((url) => `http://${url.split('?')[0]}`);
}

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: the Ping SDK's logouts sign off at end_session_endpoint, not ping_end_idp_session_endpoint`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'end-session-'));
    const trace = join(dir, 'trace.log');
    const bridge = bridgeTo(serverURL, ['--discovery', discovery, '--flavor', flavor, '--clock', 'virtual', '--trace', trace]);
    try {
      const config = {
        serverUrl: serverURL, realm: 'alpha', clientId: CLIENT_ID, discoveryEndpoint: discovery,
        redirectUri: REDIRECT_URI, scopes: ['openid', 'profile', 'email'],
      };
      const id = await bridge.request('RNPingJourney.configureJourney', [config]);
      await bridge.request('RNPingJourney.start', [id, 'Login', { forceAuth: false, noSession: false }]);
      assert.equal((await bridge.request('RNPingJourney.next', [id, '', CREDENTIALS])).type, 'SuccessNode');
      assert.equal((await bridge.request('RNPingJourney.getSession', [id])).userInfo.preferred_username, 'demo');
      assert.deepEqual(signOffs(trace), [], 'no sign-off before a logout');
      assert.equal(await bridge.request('RNPingJourney.logout', [id]), true);
      assert.deepEqual(signOffs(trace), [document.end_session_endpoint], readFileSync(trace, 'utf8'));
      assert.equal((await tenant.connection.request('emulator.state')).server.sessions, 0, 'the tenant ended the SSO session');

      // An OIDC web client on a new journey session (the browser's cookie), then its logout.
      await bridge.request('RNPingJourney.start', [id, 'Login', { forceAuth: false, noSession: false }]);
      assert.equal((await bridge.request('RNPingJourney.next', [id, '', CREDENTIALS])).type, 'SuccessNode');
      const { clientId, redirectUri, scopes } = config;
      const client = await bridge.request('RNPingOidc.createClient', [{ clientId, redirectUri, scopes, discoveryEndpoint: discovery }]);
      const web = await bridge.request('RNPingOidc.createWebClient', [client]);
      assert.deepEqual(await bridge.request('RNPingOidc.authorize', [web, {}]), { type: 'success' });
      assert.equal(await bridge.request('RNPingOidc.logout', [web]), null);
      assert.deepEqual(signOffs(trace), [document.end_session_endpoint, document.end_session_endpoint], readFileSync(trace, 'utf8'));
    } finally {
      bridge.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
