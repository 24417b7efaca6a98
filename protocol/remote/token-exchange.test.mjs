// Token sync's exchangeToken in remote mode: RFC 8693 at the tenant's token endpoint (the
// tenant is a second authbridge's HTTP face). The same requests go to an embedded bridge too, so
// the test reads as the claim it checks: a tenant's answers, good or refused, reach JS exactly
// as the embedded server's do.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startDaemon } from '../http/support.mjs';
import { LOGIN, bridgeTo, bridgeWith } from './support.mjs';

let tenant;
let remote;
let embedded;
before(async () => {
  tenant = await startDaemon(['--clock', 'virtual']);
  remote = bridgeTo(`${tenant.origin}/am`, ['--clock', 'virtual']);
  embedded = bridgeWith(['--clock', 'virtual']);
});
after(() => { remote?.close(); embedded?.close(); tenant?.close(); });

async function loggedIn(bridge) {
  await bridge.request('start');
  await bridge.request('tokenSyncReady');
  await bridge.request('login');
  assert.equal((await bridge.request('next', [LOGIN])).type, 'LoginSuccess');
  return JSON.parse(await bridge.request('getAccessToken'));
}

test('exchangeToken trades a tenant access token for a new token set: TOKEN_EVENT exchange, then the map', async () => {
  const native = await loggedIn(remote);
  const sessions = (await tenant.connection.request('emulator.state')).server.sessions;
  remote.events.length = 0;
  const map = await remote.request('exchangeToken', [native.value]);
  assert.notEqual(map.accessToken, native.value, 'the tenant issued a new access token');
  assert.notEqual(map.refreshToken, native.refreshToken);
  assert.equal(map.generation, 2);
  assert.equal(map.scope, 'openid profile email');
  const grantType = JSON.parse(Buffer.from(map.accessToken.split('.')[1], 'base64url')).grant_type;
  assert.equal(grantType, 'urn:ietf:params:oauth:grant-type:token-exchange', 'the tenant ran the token-exchange grant');
  const events = remote.events.filter((e) => e.method === 'TOKEN_EVENT');
  assert.deepEqual(events.map((e) => [e.params.reason, e.params.accessToken]), [['exchange', map.accessToken]]);
  // The new tokens are native's now, and good at the tenant; its SSO session is the same one.
  assert.equal(JSON.parse(await remote.request('getAccessToken')).value, map.accessToken);
  assert.equal((await remote.request('getUserInfo')).preferred_username, 'demo');
  assert.equal((await tenant.connection.request('emulator.state')).server.sessions, sessions);
  await remote.request('logout');
});

test('a subject the tenant refuses: the same rejection as the embedded server gives, and the tokens stay', async () => {
  for (const bridge of [remote, embedded]) await loggedIn(bridge);
  const refused = async (bridge, subject) => {
    try {
      await bridge.request('exchangeToken', [subject]);
    } catch (error) {
      return { code: error.code, message: error.message, data: error.data };
    }
    assert.fail('exchangeToken resolved');
  };
  const expected = {
    code: -32000, message: 'Token exchange failed: The subject token is invalid, expired or revoked',
    data: { code: 'error', detail: 'invalid_grant' },
  };
  assert.deepEqual(await refused(embedded, 'not-a-token'), expected);
  assert.deepEqual(await refused(remote, 'not-a-token'), expected, 'AM\'s 400 invalid_grant is a reply, not a transport error');

  // An expired subject: both clocks past the access token's hour. The bridge's own token is
  // stale too, so what it holds is unchanged by the refusal.
  const held = JSON.parse(await remote.request('getAccessToken'));
  await tenant.connection.request('emulator.advanceClock', { seconds: 3600 });
  await remote.request('emulator.advanceClock', { seconds: 3600 });
  assert.deepEqual(await refused(remote, held.value), expected);
  assert.equal((await remote.request('emulator.state')).tokens.refreshToken, `${held.refreshToken.slice(0, 12)}...`);
  for (const bridge of [remote, embedded]) await bridge.request('logout');
});

test('exchangeToken with the tenant gone: the transport error, not an OAuth one', async () => {
  const doomed = await startDaemon([]);
  const client = bridgeTo(`${doomed.origin}/am`);
  try {
    const native = await loggedIn(client);
    await doomed.close(); // the tenant has exited: its port refuses
    await assert.rejects(client.request('exchangeToken', [native.value]), (error) => {
      assert.equal(error.code, -32000);
      assert.match(error.message, /^Token exchange failed: cannot reach the identity server 127\.0\.0\.1:\d+ \(POST \/am\/oauth2\/realms\/root\/realms\/alpha\/access_token\): the connection was refused or lost$/);
      assert.equal(error.data.detail, undefined, 'no OAuth error code: the tenant never answered');
      return true;
    });
    assert.deepEqual(await client.request('daemon.ping'), {});
  } finally {
    client.close();
  }
});
