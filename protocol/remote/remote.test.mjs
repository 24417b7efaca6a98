// Remote mode end to end: a bridge started with --server drives a second authbridge's HTTP face
// as its "tenant" on loopback, exactly as it would drive a real AM. The tenant keeps stdio too, so
// the test can move its virtual clock and read its state; a tenant that goes away and one that
// never answers show the bridge's transport rejections, after which the bridge keeps serving.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { CLIENT_ID, REDIRECT_URI, binary, startDaemon } from '../http/support.mjs';
import { LOGIN, bridgeTo } from './support.mjs';

let tenant;
let bridge;
before(async () => {
  // Sessions that outlive the hour the clocks move below (AM's default idle time is 30 minutes:
  // the bridge checks the session before a refresh, as the SDK does against a tenant).
  tenant = await startDaemon(['--clock', 'virtual', '--max-idle-time', '120']);
  bridge = bridgeTo(`${tenant.origin}/am`, ['--clock', 'virtual']);
});
after(() => { bridge?.close(); tenant?.close(); });

test('daemon.hello says server.kind remote with the URL and realm', async () => {
  const hello = await bridge.request('daemon.hello');
  assert.deepEqual(hello.server, { kind: 'remote', url: `${tenant.origin}/am`, realm: 'alpha', clientId: CLIENT_ID });
  assert.ok(hello.methods.includes('emulator.addUser'), 'the method list is the same in both modes');
});

test('login journey, getUserInfo, refresh after the clocks move, logout: all on the tenant', async () => {
  await bridge.request('start');
  const step = JSON.parse(await bridge.request('login'));
  assert.equal(step.callbacks[0].type, 'NameCallback');
  const success = await bridge.request('next', [LOGIN]);
  assert.equal(success.type, 'LoginSuccess');
  const user = await bridge.request('getUserInfo');
  assert.equal(user.preferred_username, 'demo');

  const first = JSON.parse(await bridge.request('getAccessToken'));
  // Both clocks past the access token's life (one hour): the bridge sees it stale and refreshes
  // against the tenant, which sees the old token expired and the refresh token still good.
  await tenant.connection.request('emulator.advanceClock', { seconds: 3590 });
  await bridge.request('emulator.advanceClock', { seconds: 3590 });
  const second = JSON.parse(await bridge.request('getAccessToken'));
  assert.notEqual(second.value, first.value);
  assert.equal((await tenant.connection.request('emulator.state')).server.refreshCount, 1);
  assert.equal((await bridge.request('getUserInfo')).preferred_username, 'demo', 'the refreshed token is good at the tenant');

  assert.equal((await tenant.connection.request('emulator.state')).server.sessions, 1);
  await bridge.request('logout');
  assert.equal((await tenant.connection.request('emulator.state')).server.sessions, 0, 'the tenant ended the SSO session');
  await assert.rejects(bridge.request('getAccessToken'));
});

test('a session the tenant ends: the next refresh finds it, LOGOUT_EVENT session_ended, the call rejects', async () => {
  const events = () => bridge.events.filter((e) => e.method === 'LOGOUT_EVENT').map((e) => e.params.reason);
  await bridge.request('tokenSyncReady');
  await bridge.request('login');
  assert.equal((await bridge.request('next', [LOGIN])).type, 'LoginSuccess');
  const native = JSON.parse(await bridge.request('getAccessToken'));
  // Ended on the tenant's own HTTP face, as an admin or a web app in another tab would end it.
  const logout = await fetch(`${tenant.json}/sessions?_action=logout`, {
    method: 'POST', headers: { Cookie: `iPlanetDirectoryPro=${native.sessionToken}`, 'Accept-API-Version': 'resource=3.1, protocol=1.0' },
  });
  assert.equal(logout.status, 200);
  // The tenant tells no one; the tokens it issued stay good until the bridge needs the tenant again.
  assert.equal((await bridge.request('getUserInfo')).preferred_username, 'demo');
  assert.deepEqual(events(), []);
  await tenant.connection.request('emulator.advanceClock', { seconds: 3590 });
  await bridge.request('emulator.advanceClock', { seconds: 3590 });
  await assert.rejects(bridge.request('getAccessToken'), /All user credentials are expired or invalid; user authentication is required/);
  assert.deepEqual(events(), ['session_ended']);
  assert.equal((await bridge.request('emulator.state')).tokens, null);
});

test('emulator methods that need the embedded server answer −32601 saying why', async () => {
  for (const method of ['emulator.addUser', 'emulator.revokeSession', 'emulator.lastOneTimeCode', 'emulator.lastSuspendedJourney']) {
    await assert.rejects(bridge.request(method, { username: 'x', password: 'y' }), (error) => {
      assert.equal(error.code, -32601);
      assert.match(error.message, /cannot apply to a real tenant: server\.kind is remote/);
      return true;
    });
  }
});

test('a tenant that goes away mid-journey: a clear transport rejection, and the bridge keeps serving', async () => {
  const doomed = await startDaemon([]);
  const client = bridgeTo(`${doomed.origin}/am`);
  try {
    await client.request('start');
    await client.request('login');
    await doomed.close(); // the tenant has exited: its port refuses
    await assert.rejects(client.request('next', [LOGIN]), (error) => {
      // The iOS sample rejects next() with its fixed message; the cause rides in data.detail.
      assert.equal(error.message, 'LoginFailure');
      assert.match(error.data.detail, /^cannot reach the identity server 127\.0\.0\.1:\d+ \(POST \/am\/json\/realms\/root\/realms\/alpha\/authenticate\): the connection was refused or lost$/);
      return true;
    });
    assert.deepEqual(await client.request('daemon.ping'), {});
  } finally {
    client.close();
  }
});

test('a tenant slower than --timeout: the request is rejected as a timeout', async () => {
  // Accepts the connection and never answers: the cheapest slow server there is.
  const sockets = [];
  const silent = createServer((socket) => sockets.push(socket));
  await new Promise((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const client = bridgeTo(`http://127.0.0.1:${silent.address().port}/am`, ['--timeout', '1']);
  try {
    await client.request('start');
    // The rejection names the configured 1 s as the cause (no wall-clock assertion: a loaded
    // machine may deliver it late, and a hang is what the test runner's timeout is for).
    await assert.rejects(client.request('login'), (error) => {
      assert.match(error.message, /did not answer POST \/am\/json\/realms\/root\/realms\/alpha\/authenticate within 1 s \(timeout\)/);
      return true;
    });
    assert.deepEqual(await client.request('daemon.ping'), {});
  } finally {
    client.close();
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});

test('a config file with a missing key stops the start naming the file and key', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { spawnSync } = await import('node:child_process');
  const file = join(mkdtempSync(join(tmpdir(), 'remote-')), 'strings.xml');
  writeFileSync(file, '<resources><string name="forgerock_url">https://am.example.com/am</string></resources>');
  const run = spawnSync(binary, ['--config', file], { input: '', encoding: 'utf8' });
  assert.equal(run.status, 2);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, new RegExp(`${file}: forgerock_realm is missing or empty`));
});

test('authbridge without authbridge-remote beside it says so and how to install both', async () => {
  const { copyFileSync, mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { spawnSync } = await import('node:child_process');
  const dir = mkdtempSync(join(tmpdir(), 'remote-alone-'));
  try {
    const alone = join(dir, 'authbridge');
    copyFileSync(binary, alone);
    const run = spawnSync(alone, [
      '--server', 'http://127.0.0.1:1/am', '--realm', 'alpha', '--client-id', CLIENT_ID, '--redirect-uri', REDIRECT_URI,
    ], { input: '', encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '', 'no frame is written');
    assert.match(run.stderr, new RegExp(`runs ${join(dir, 'authbridge-remote')}, which could not be started`));
    assert.match(run.stderr, /make install REMOTE=1/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
