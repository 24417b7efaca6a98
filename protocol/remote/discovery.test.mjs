// Remote mode with discovery: the OAuth endpoints come from the tenant's
// .well-known/openid-configuration (--discovery, or FROptions' discoveryEndpoint), journeys and
// sessions from --server and the realm. The tenant is a second authbridge whose --public-url names
// it as http://localhost:PORT/am, so its document's endpoints are on another host name than the
// --server URL (127.0.0.1) and the trace shows which calls followed the document. A document that
// cannot be read, is not JSON, or lacks an endpoint stops the start (exit 2) naming the URL and key.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CLIENT_ID, REDIRECT_URI, binary, startDaemon } from '../http/support.mjs';
import { validate } from '../schema/validate.mjs';
import { LOGIN, bridgeTo, bridgeWith, freePort } from './support.mjs';

const WELL_KNOWN = 'oauth2/realms/root/realms/alpha/.well-known/openid-configuration';

let port;
let tenant;
let serverURL;
let publicURL;
before(async () => {
  port = await freePort();
  // --max-idle-time: the session outlives the hour the clocks move below (AM's default is 30 minutes).
  tenant = await startDaemon(['--http', `127.0.0.1:${port}`, '--public-url', `http://localhost:${port}/am`, '--clock', 'virtual', '--max-idle-time', '120']);
  serverURL = `http://127.0.0.1:${port}/am`;
  publicURL = `http://localhost:${port}/am`;
});
after(() => tenant?.close());

test('the tenant\'s own discovery document: login, refresh, userinfo, logout over the endpoints it names', async () => {
  const discovery = `${serverURL}/${WELL_KNOWN}`;
  const bridge = bridgeTo(serverURL, ['--discovery', discovery, '--clock', 'virtual', '--log-level', 'trace']);
  try {
    const hello = await bridge.request('daemon.hello');
    assert.deepEqual(hello.server, { kind: 'remote', url: serverURL, realm: 'alpha', clientId: CLIENT_ID, discovery });
    const schema = JSON.parse(readFileSync(new URL('../schema/daemon.hello.result.schema.json', import.meta.url)));
    assert.deepEqual(validate(schema, hello), []);
    await bridge.request('start');
    await bridge.request('login');
    assert.equal((await bridge.request('next', [LOGIN])).type, 'LoginSuccess');
    assert.equal((await bridge.request('getUserInfo')).preferred_username, 'demo');
    await tenant.connection.request('emulator.advanceClock', { seconds: 3590 });
    await bridge.request('emulator.advanceClock', { seconds: 3590 });
    await bridge.request('getAccessToken');
    assert.equal((await tenant.connection.request('emulator.state')).server.refreshCount, 1);
    await bridge.request('logout');
    assert.equal((await tenant.connection.request('emulator.state')).server.sessions, 0, 'the tenant ended the SSO session');

    const calls = bridge.stderr.match(/HTTP [A-Z]+ \S+ → \d+/g) ?? [];
    const called = (path) => calls.filter((line) => line.includes(`/am/${path} `)).map((line) => line.split(' ')[2].split('/')[0]);
    const documentHost = `localhost:${port}`;
    const serverHost = `127.0.0.1:${port}`;
    // The document's endpoints (the tenant's public URL) for OAuth; the server URL for the rest.
    // (Sign-off, connect/endSession, is the Ping SDK's and a logout without an SSO token's: RemoteAMTests.)
    for (const path of ['authorize', 'access_token', 'userinfo', 'token/revoke']) {
      const hosts = called(`oauth2/realms/root/realms/alpha/${path}`);
      assert.ok(hosts.length > 0, `${path} was called: ${calls.join('\n')}`);
      assert.deepEqual([...new Set(hosts)], [documentHost], path);
    }
    for (const path of ['authenticate', 'sessions']) {
      assert.deepEqual([...new Set(called(`json/realms/root/realms/alpha/${path}`))], [serverHost], path);
    }
  } finally {
    bridge.close();
  }
});

test('FROptions JSON discoveryEndpoint is the same as --discovery', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'discovery-'));
  try {
    const file = join(dir, 'froptions.json');
    const discovery = `${publicURL}/${WELL_KNOWN}`;
    writeFileSync(file, JSON.stringify({
      url: serverURL, realm: 'alpha', oauthClientId: CLIENT_ID, oauthRedirectUri: REDIRECT_URI,
      oauthScope: 'openid profile email', discoveryEndpoint: discovery,
    }));
    const bridge = bridgeWith(['--config', file]);
    try {
      assert.equal((await bridge.request('daemon.hello')).server.discovery, discovery);
      await bridge.request('start');
      await bridge.request('login');
      assert.equal((await bridge.request('next', [LOGIN])).type, 'LoginSuccess');
      assert.equal((await bridge.request('getUserInfo')).preferred_username, 'demo');
      await bridge.request('logout');
    } finally {
      bridge.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a document that cannot be used stops the start (exit 2) naming the URL and what is wrong', async (t) => {
  const tenantDocument = await (await fetch(`${serverURL}/${WELL_KNOWN}`)).json();
  const { token_endpoint: _dropped, ...withoutToken } = tenantDocument;
  const bodies = {
    '/missing': [404, '{"code":404}'],
    '/html': [200, '<html>login</html>'],
    '/array': [200, '[]'],
    '/no-token': [200, JSON.stringify(withoutToken)],
    '/bad-userinfo': [200, JSON.stringify({ ...tenantDocument, userinfo_endpoint: 42 })],
  };
  const fake = createServer((request, response) => {
    const [status, body] = bodies[request.url] ?? [500, ''];
    response.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
  });
  await new Promise((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${fake.address().port}`;
  const closed = `http://127.0.0.1:${await freePort()}/am/${WELL_KNOWN}`;
  const cases = [
    [`${base}/missing`, /the discovery document \S+\/missing answered HTTP 404, not 200/],
    [`${base}/html`, /the discovery document \S+\/html is not JSON/],
    [`${base}/array`, /the discovery document \S+\/array is not a JSON object/],
    [`${base}/no-token`, /the discovery document \S+\/no-token has no token_endpoint/],
    [`${base}/bad-userinfo`, /the discovery document \S+\/bad-userinfo: userinfo_endpoint must be an http\(s\) URL, got 42/],
    [closed, /cannot read the discovery document \S+: cannot reach the identity server 127\.0\.0\.1:\d+ \(GET \/am\/oauth2\/realms\/root\/realms\/alpha\/\.well-known\/openid-configuration\): the connection was refused or lost/],
  ];
  try {
    for (const [url, message] of cases) {
      await t.test(url.slice(url.lastIndexOf('/')), async () => {
        const run = await runToExit(['--discovery', url]);
        assert.equal(run.status, 2, run.stderr);
        assert.equal(run.stdout, '', 'no frame is written');
        assert.match(run.stderr, message);
        assert.ok(run.stderr.includes(url), 'the URL is named');
      });
    }
  } finally {
    fake.close();
  }
});

test('--discovery that is not an http(s) URL is a usage error', async () => {
  const run = await runToExit(['--discovery', 'tenant/.well-known/openid-configuration']);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--discovery needs the http\(s\) URL of a \.well-known\/openid-configuration, got tenant\//);
});

/** The bridge started against the tenant with `extra`, run with empty stdin until it exits. */
function runToExit(extra) {
  return new Promise((resolve) => {
    const child = spawn(binary, [
      '--server', serverURL, '--realm', 'alpha', '--client-id', CLIENT_ID, '--redirect-uri', REDIRECT_URI, ...extra,
    ], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end();
  });
}
