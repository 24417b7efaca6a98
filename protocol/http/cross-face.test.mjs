// One state, every face: a login through the bridge (stdio) is a session over HTTP and the
// reverse; a logout on either face shows on the other, and ending the native session over HTTP
// reaches the JS host as LOGOUT_EVENT at once, without the host writing anything.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { CLIENT_ID, CookieJar, FORM, binary, form, loginOverHTTP, startDaemon } from './support.mjs';

const LOGIN = JSON.stringify({ callbacks: [
  { type: 'NameCallback', input: [{ name: 'IDToken1', value: 'demo' }] },
  { type: 'PasswordCallback', input: [{ name: 'IDToken2', value: 'Ch4ng3it!' }] },
] });

let daemon;
before(async () => { daemon = await startDaemon(['--seed', '7', '--clock', 'virtual']); });
after(() => daemon.close());

/** Logs in through the bridge; returns the native AccessToken (its sessionToken is the SSO token). */
async function bridgeLogin() {
  const rpc = daemon.connection;
  await rpc.request('login');
  await rpc.request('next', [LOGIN]);
  await daemon.nextEvent('TOKEN_EVENT');
  return JSON.parse(await rpc.request('getAccessToken'));
}

test('daemon.hello names the HTTP URL only when --http is given', async () => {
  const hello = await daemon.connection.request('daemon.hello');
  assert.deepEqual(hello.http, {
    origin: daemon.origin, baseUrl: `${daemon.origin}/am/`, inspector: `${daemon.origin}/inspector/`,
  });
  await daemon.connection.request('tokenSyncReady');
  await daemon.nextEvent('TOKEN_REQUEST_EVENT');
  await daemon.connection.request('start');
});

test('bridge login → session valid over HTTP → HTTP logout → LOGOUT_EVENT on stdio at once', async () => {
  const native = await bridgeLogin();
  const jar = new CookieJar();
  jar.cookies.set('iPlanetDirectoryPro', native.sessionToken);
  const validate = await jar.fetch(`${daemon.json}/sessions?_action=validate`, { method: 'POST' });
  assert.deepEqual(await validate.json(), { valid: true, uid: 'demo', realm: '/alpha' });
  // The bridge's access token is good at the HTTP userinfo endpoint: one issuer, one state.
  const user = await fetch(`${daemon.oauth}/userinfo`, { headers: { Authorization: `Bearer ${native.value}` } });
  assert.equal((await user.json()).preferred_username, 'demo');

  const logout = await jar.fetch(`${daemon.json}/sessions/?_action=logout`, { method: 'POST' });
  assert.equal(logout.status, 200);
  // Nothing is written to stdin: the event comes from the HTTP request's transaction.
  const event = await daemon.nextEvent('LOGOUT_EVENT');
  assert.equal(event.reason, 'session_ended');
  const state = await daemon.connection.request('emulator.state');
  assert.equal(state.ssoSession, false);
  assert.equal(state.tokens, null);
});

test('bridge logout → the session is gone over HTTP, and no event echoes the bridge’s own logout', async () => {
  const native = await bridgeLogin();
  const validate = () => fetch(`${daemon.json}/sessions?_action=validate`, { method: 'POST', body: JSON.stringify({ tokenId: native.sessionToken }) }).then((r) => r.json());
  assert.equal((await validate()).valid, true);
  await daemon.connection.request('logout');
  assert.deepEqual(await validate(), { valid: false });
  await daemon.connection.request('daemon.ping');
  assert.deepEqual(daemon.events.filter((e) => e.method === 'LOGOUT_EVENT'), []);
});

test('an HTTP session is the server’s, and an endSession of the native id token logs native out', async () => {
  const jar = new CookieJar();
  const success = await (await loginOverHTTP(daemon, jar)).json();
  const state = await daemon.connection.request('emulator.state');
  assert.equal(state.server.sessions, 1, 'the HTTP login is a session of the one server');
  assert.equal(state.ssoSession, false, 'and not the native side’s');
  await jar.fetch(`${daemon.json}/sessions?_action=logout`, { method: 'POST' });
  assert.equal(success.realm, '/alpha');

  const native = await bridgeLogin();
  const ended = await fetch(`${daemon.oauth}/connect/endSession?${form({ id_token_hint: native.idToken, client_id: CLIENT_ID })}`);
  assert.equal(ended.status, 200);
  assert.equal((await daemon.nextEvent('LOGOUT_EVENT')).reason, 'session_ended');
});

test('revoking the native refresh token over HTTP is found at the next refresh', async () => {
  const native = await bridgeLogin();
  const revoke = await fetch(`${daemon.oauth}/token/revoke`, { method: 'POST', headers: FORM, body: form({ token: native.refreshToken, client_id: CLIENT_ID }) });
  assert.equal(revoke.status, 200);
  // The session is used over HTTP meanwhile, so it outlives AM's 30 minutes of idle time.
  for (const seconds of [1700, 1700, 190]) {
    await daemon.connection.request('emulator.advanceClock', { seconds });
    const used = await fetch(`${daemon.json}/sessions?_action=refresh`, {
      method: 'POST', headers: { Cookie: `iPlanetDirectoryPro=${native.sessionToken}`, 'Accept-API-Version': 'resource=4.0' },
    });
    assert.equal(used.status, 200);
  }
  // The refresh is refused; the SSO session re-authorizes (AM's fallback), a TOKEN_EVENT.
  await daemon.connection.request('getAccessToken');
  assert.equal((await daemon.nextEvent('TOKEN_EVENT')).reason, 'session');
  await daemon.connection.request('logout');
});

test('a malformed HTTP request is answered 400 and the server keeps serving both faces', async () => {
  const url = new URL(daemon.origin);
  const answer = await new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    socket.on('data', (chunk) => { text += chunk; });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.write('THIS IS NOT HTTP\r\n\r\n');
  });
  assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
  assert.equal((await fetch(`${daemon.json}/serverinfo/*`)).status, 200);
  assert.deepEqual(await daemon.connection.request('daemon.ping'), {});
});

test('--no-stdio serves HTTP only, until SIGTERM', async () => {
  const child = spawn(binary, ['--http', '0', '--no-stdio'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (t) => { stderr += t; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 5000;
  while (!/AM over HTTP at (\S+)\/am\//.test(stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const origin = stderr.match(/AM over HTTP at (\S+)\/am\//)[1];
  const info = await fetch(`${origin}/am/json/realms/root/realms/alpha/serverinfo/*`);
  assert.equal(info.status, 200);
  let stdout = '';
  child.stdout.on('data', (t) => { stdout += t; });
  child.kill('SIGTERM');
  assert.deepEqual(await exited, { code: 0, signal: null });
  assert.equal(stdout, '', 'stdout carries protocol frames only');
});
