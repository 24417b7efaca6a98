// The apps' own endpoint overrides in remote mode (FRAuthConfig.plist's and strings.xml's
// forgerock_*_endpoint, FROptions' *Endpoint): an absolute URL is used as it is, a path goes under
// forgerock_url. The tenant is a second authbridge; the overrides name it as http://localhost:PORT
// while forgerock_url says 127.0.0.1, so the trace shows which calls followed them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CLIENT_ID, REDIRECT_URI, binary, startDaemon } from '../http/support.mjs';
import { LOGIN, bridgeWith, freePort } from './support.mjs';

const OAUTH = 'oauth2/realms/root/realms/alpha';
const JSON_PATH = 'json/realms/root/realms/alpha';

let port;
let tenant;
let dir;
before(async () => {
  port = await freePort();
  tenant = await startDaemon(['--http', `127.0.0.1:${port}`, '--clock', 'virtual']);
  dir = mkdtempSync(join(tmpdir(), 'endpoints-'));
});
after(() => { tenant?.close(); rmSync(dir, { recursive: true, force: true }); });

function plist(entries) {
  const all = {
    forgerock_url: `http://127.0.0.1:${port}/am`, forgerock_realm: 'alpha', forgerock_oauth_client_id: CLIENT_ID,
    forgerock_oauth_redirect_uri: REDIRECT_URI, forgerock_oauth_scope: 'openid profile email', ...entries,
  };
  const body = Object.entries(all).map(([key, value]) => `  <key>${key}</key><string>${value}</string>`).join('\n');
  const file = join(dir, `FRAuthConfig-${Object.keys(entries).length}-${Math.random().toString(36).slice(2)}.plist`);
  writeFileSync(file, `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n${body}\n</dict>\n</plist>\n`);
  return file;
}

const hostsOf = (stderr, path) => [...new Set((stderr.match(/HTTP [A-Z]+ \S+ → \d+/g) ?? [])
  .filter((line) => line.includes(`/am/${path} `)).map((line) => line.split(' ')[2].split('/')[0]))];

test('a plist overriding every endpoint: login, userinfo, logout go where it says', async () => {
  const elsewhere = `http://localhost:${port}/am`;
  const file = plist({
    forgerock_authenticate_endpoint: `/${JSON_PATH}/authenticate`,
    forgerock_session_endpoint: `/${JSON_PATH}/sessions`,
    forgerock_authorize_endpoint: `${elsewhere}/${OAUTH}/authorize`,
    forgerock_token_endpoint: `${elsewhere}/${OAUTH}/access_token`,
    forgerock_userinfo_endpoint: `${elsewhere}/${OAUTH}/userinfo`,
    forgerock_revoke_endpoint: `${elsewhere}/${OAUTH}/token/revoke`,
    forgerock_endsession_endpoint: `${elsewhere}/${OAUTH}/connect/endSession`,
  });
  const bridge = bridgeWith(['--config', file, '--clock', 'virtual', '--log-level', 'trace']);
  try {
    await bridge.request('start');
    await bridge.request('login');
    assert.equal((await bridge.request('next', [LOGIN])).type, 'LoginSuccess');
    assert.equal((await bridge.request('getUserInfo')).preferred_username, 'demo');
    await bridge.request('logout');
    assert.equal((await tenant.connection.request('emulator.state')).server.sessions, 0, 'the tenant ended the SSO session');
    for (const path of ['authorize', 'access_token', 'userinfo', 'token/revoke']) {
      assert.deepEqual(hostsOf(bridge.stderr, `${OAUTH}/${path}`), [`localhost:${port}`], path);
    }
    for (const path of ['authenticate', 'sessions']) {
      assert.deepEqual(hostsOf(bridge.stderr, `${JSON_PATH}/${path}`), [`127.0.0.1:${port}`], path);
    }
  } finally {
    bridge.close();
  }
});

test('strings.xml: empty overrides are the defaults; a token endpoint nothing serves is the tenant\'s 404, one nothing listens on a transport error', async () => {
  const strings = (token) => {
    const file = join(dir, `strings-${Math.random().toString(36).slice(2)}.xml`);
    writeFileSync(file, `<resources>
  <string name="forgerock_url">http://127.0.0.1:${port}/am</string>
  <string name="forgerock_realm">alpha</string>
  <string name="forgerock_oauth_client_id">${CLIENT_ID}</string>
  <string name="forgerock_oauth_redirect_uri">${REDIRECT_URI}</string>
  <string name="forgerock_oauth_scope">openid profile email</string>
  <string name="forgerock_authenticate_endpoint" translatable="false" />
  <string name="forgerock_token_endpoint" translatable="false">${token}</string>
</resources>`);
    return file;
  };
  const login = async (file) => {
    const bridge = bridgeWith(['--config', file, '--log-level', 'trace']);
    try {
      await bridge.request('start');
      await bridge.request('login');
      return { result: await bridge.request('next', [LOGIN]).catch((error) => error), stderr: bridge.stderr };
    } finally {
      bridge.close();
    }
  };
  assert.equal((await login(strings(''))).result.type, 'LoginSuccess', 'empty, as Android ships them: AM\'s layout');
  assert.equal((await login(strings(`${OAUTH}/access_token`))).result.type, 'LoginSuccess', 'a path without / joined as Android joins it');

  const missing = await login(strings(`${OAUTH}/nowhere`));
  assert.equal(missing.result.message, 'LoginFailure');
  // AM's 404 is not an OAuth error: its message is what the rejection carries.
  assert.equal(missing.result.data.detail, `Resource '/am/${OAUTH}/nowhere' not found`);
  assert.match(missing.stderr, new RegExp(`HTTP POST 127\\.0\\.0\\.1:${port}/am/${OAUTH}/nowhere → 404`));

  const closed = await freePort();
  const gone = await login(strings(`http://127.0.0.1:${closed}/am/${OAUTH}/access_token`));
  assert.equal(gone.result.message, 'LoginFailure');
  assert.equal(gone.result.data.detail,
    `cannot reach the identity server 127.0.0.1:${closed} (POST /am/${OAUTH}/access_token): the connection was refused or lost`);
});

test('a malformed override stops the start naming the file and key', () => {
  for (const [value, why] of [
    [`${OAUTH}/access_token`, 'must start with / (the iOS SDK appends it to forgerock_url as written)'],
    ['ftp://tenant/token', 'must be an http(s) URL or a path under forgerock_url'],
  ]) {
    const file = plist({ forgerock_token_endpoint: value });
    const run = spawnSync(binary, ['--config', file], { input: '', encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.equal(run.stdout, '', 'no frame is written');
    assert.ok(run.stderr.includes(`${file}: forgerock_token_endpoint ${why}`), run.stderr);
  }
});

test('with a discovery URL the document\'s OAuth endpoints replace the overrides, as FROptions.discover does, and stderr says so', async () => {
  const file = plist({ forgerock_token_endpoint: '/nowhere/access_token' });
  const bridge = bridgeWith(['--config', file, '--discovery', `http://127.0.0.1:${port}/am/${OAUTH}/.well-known/openid-configuration`]);
  try {
    await bridge.request('start');
    await bridge.request('login');
    assert.equal((await bridge.request('next', [LOGIN])).type, 'LoginSuccess');
    assert.match(bridge.stderr, /forgerock_token_endpoint is replaced by the discovery document's endpoint/);
    await bridge.request('logout');
  } finally {
    bridge.close();
  }
});
