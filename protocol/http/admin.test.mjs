// The admin REST API (docs/seed.md, "Admin API"): users, devices, sessions, import, export and
// reset under /emulator/v1 on the HTTP face, JSON errors naming the field at fault; served only on
// a loopback listener, and a browser's cross-origin call refused unless --cors-origin allows it.
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { after, before, test } from 'node:test';
import { CookieJar, loginOverHTTP, startDaemon } from './support.mjs';

const ALLOWED = 'http://localhost:3000';
let daemon;
let admin;
before(async () => {
  daemon = await startDaemon(['--seed', '4', '--clock', 'virtual', '--cors-origin', ALLOWED]);
  admin = `${daemon.origin}/emulator/v1`;
});
after(() => daemon.close());

async function call(method, path, body, headers = {}) {
  const response = await fetch(`${admin}${path}`, {
    method, headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: response.status === 204 ? null : await response.json() };
}

const OATH = {
  uuid: 'oath-ada', deviceName: 'OATH Device', createdDate: '2026-01-01T00:00:00Z', lastAccessDate: '2026-01-01T00:00:00Z',
  sharedSecret: 'AAECAwQFBgcICQoLDA0ODxAREhM', counter: 0, lastLogin: 0, clockDriftSeconds: 0, checksumDigit: false,
  truncationOffset: -1, recoveryCodes: [],
};

test('users: created, listed, updated and deleted; a created user logs in over AM REST', async () => {
  const created = await call('POST', '/users', { username: 'ada', password: 'An4lytical!', attributes: { givenName: 'Ada' } });
  assert.equal(created.status, 201);
  assert.equal(created.body.username, 'ada');
  assert.equal(created.body.passwordHash.algorithm, 'PBKDF2-HMAC-SHA256');
  assert.equal('password' in created.body, false);
  const taken = await call('POST', '/users', { username: 'ADA', password: 'x' });
  assert.equal(taken.status, 409);
  assert.equal(taken.body.error.field, 'username');

  assert.deepEqual((await call('GET', '/users')).body.users.map((u) => u.username), ['ada', 'demo']);
  assert.equal((await loginOverHTTP(daemon, new CookieJar(), { username: 'ada', password: 'An4lytical!' })).status, 200);

  const patched = await call('PATCH', '/users/ada', { password: 'N3w-pass!', attributes: { sn: 'Lovelace', givenName: null } });
  assert.equal(patched.status, 200);
  assert.deepEqual(patched.body.attributes, { sn: 'Lovelace' });
  assert.equal((await loginOverHTTP(daemon, new CookieJar(), { username: 'ada', password: 'N3w-pass!' })).status, 200);

  assert.deepEqual((await call('DELETE', '/users/ada')).body, {});
  assert.equal((await call('GET', '/users/ada')).status, 404);
  assert.equal((await loginOverHTTP(daemon, new CookieJar(), { username: 'ada', password: 'N3w-pass!' })).status, 401);
});

test('bad input: the error names the field at fault, and nothing is created', async () => {
  const cases = [
    [{ username: 'bob', password: 'pw', nickname: 'B' }, 'nickname', /unknown field/],
    [{ username: 'bob', passwordHash: { algorithm: 'MD5', iterations: 1, salt: '', hash: '' } }, 'passwordHash.algorithm', /weak hash MD5/],
    [{ username: 'bob', password: 'pw', lock: { until: 'tomorrow' } }, 'lock.until', /not a date/],
    [{ username: 'bob', password: 'pw', devices: { oath: [{ ...OATH, createdDate: '2026-02-30T00:00:00Z' }] } },
      'devices.oath[0].createdDate', /not a date/],
  ];
  for (const [body, field, message] of cases) {
    const refused = await call('POST', '/users', body);
    assert.equal(refused.status, 400, field);
    assert.equal(refused.body.error.field, field);
    assert.match(refused.body.error.message, message);
  }
  assert.equal((await call('GET', '/users/bob')).status, 404);
  const notJSON = await fetch(`${admin}/users`, { method: 'POST', body: '{' });
  assert.equal(notJSON.status, 400);
  assert.equal((await call('PUT', '/users')).status, 405);
  assert.equal((await call('GET', '/nothing-here')).status, 404);
});

test('devices: added in the seed form, listed, renamed, deleted', async () => {
  await call('POST', '/users', { username: 'grace', password: 'C0bol!' });
  const added = await call('POST', '/users/grace/devices', { oath: [OATH] });
  assert.equal(added.status, 201);
  assert.deepEqual(added.body.oath.map((d) => d.uuid), ['oath-ada']);
  const again = await call('POST', '/users/grace/devices', { oath: [OATH] });
  assert.equal(again.status, 400);
  const renamed = await call('PATCH', '/users/grace/devices/oath/oath-ada', { deviceName: 'Work phone' });
  assert.equal(renamed.body.oath[0].deviceName, 'Work phone');
  // AM's own device endpoint lists it too: one directory behind both.
  const listed = await call('GET', '/users/grace/devices');
  assert.equal(listed.body.oath[0].sharedSecret, OATH.sharedSecret);
  assert.deepEqual((await call('DELETE', '/users/grace/devices/oath/oath-ada')).body, {});
  assert.deepEqual((await call('GET', '/users/grace/devices')).body, {});
  assert.equal((await call('DELETE', '/users/grace/devices/sms/x')).body.error.field, 'kind');
});

test('sessions: a created session validates over AM REST until deleted', async () => {
  const created = await call('POST', '/sessions', { token: 'admin-made-session', username: 'demo', journeys: ['Login'] });
  assert.equal(created.status, 201);
  const validate = () => fetch(`${daemon.json}/sessions?_action=validate`, {
    method: 'POST', headers: { iPlanetDirectoryPro: 'admin-made-session', 'Accept-API-Version': 'resource=2.1, protocol=1.0' },
  }).then((r) => r.json());
  assert.equal((await validate()).valid, true);
  assert.ok((await call('GET', '/sessions')).body.sessions.some((s) => s.token === 'admin-made-session'));
  assert.equal((await call('POST', '/sessions', { token: 'x', username: 'nobody' })).body.error.field, 'username');
  assert.deepEqual((await call('DELETE', '/sessions/admin-made-session')).body, {});
  assert.equal((await validate()).valid, false);
});

test('import, export and reset: the start state comes back', async () => {
  const imported = await call('POST', '/import', {
    version: 1, users: [{ username: 'linus', password: 'K3rnel!' }],
    clients: [{ clientId: 'web', redirectUris: ['http://localhost:3000/cb'] }],
  });
  assert.deepEqual(imported.body, { users: 1, sessions: 0, clients: 1 });
  const exported = (await call('GET', '/export')).body;
  assert.equal(exported.format, 'authbridge-seed');
  assert.ok(exported.users.some((u) => u.username === 'linus'));
  assert.ok(exported.clients.some((c) => c.clientId === 'web'));
  const badImport = await call('POST', '/import', { version: 1, users: [{ username: 'a', password: 'b' }, { username: 'A', password: 'c' }] });
  assert.equal(badImport.body.error.field, 'users[1].username');

  assert.deepEqual((await call('POST', '/reset')).body, {});
  assert.deepEqual((await call('GET', '/users')).body.users.map((u) => u.username), ['demo']);
  assert.deepEqual((await call('GET', '/export')).body.clients.map((c) => c.clientId), ['ReactNativeOAuthClient']);
});

test('a cross-origin call is refused unless --cors-origin allows that origin', async () => {
  const refused = await call('GET', '/users', undefined, { Origin: 'http://evil.example' });
  assert.equal(refused.status, 403);
  assert.match(refused.body.error.message, /--cors-origin http:\/\/evil\.example/);
  const allowed = await call('GET', '/users', undefined, { Origin: ALLOWED });
  assert.equal(allowed.status, 200);
  assert.equal(allowed.headers.get('access-control-allow-origin'), ALLOWED);
  const preflight = await fetch(`${admin}/users`, {
    method: 'OPTIONS', headers: { Origin: ALLOWED, 'Access-Control-Request-Method': 'DELETE' },
  });
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get('access-control-allow-methods'), /DELETE/);
});

test('on a listener that is not loopback the admin API is not served at all', async (t) => {
  const external = Object.values(networkInterfaces()).flat().find((i) => i.family === 'IPv4' && !i.internal);
  if (!external) return t.skip('no non-loopback IPv4 interface on this machine');
  const open = await startDaemon(['--http', '0.0.0.0:0']).catch(() => null);
  if (!open) return t.skip('cannot bind 0.0.0.0 here');
  try {
    const port = new URL(open.origin).port;
    const response = await fetch(`http://${external.address}:${port}/emulator/v1/users`);
    assert.equal(response.status, 404);
    assert.equal((await response.json()).code, 404, 'AM\'s own 404, not the admin API');
  } finally {
    open.close();
  }
});

test('faults: set over the admin API, seen by the next AM request, listed, cleared; a bad spec names its member', async () => {
  const set = await call('POST', '/faults', { route: 'serverInfo', kind: 'status', status: 503, count: 1 });
  assert.equal(set.status, 201);
  assert.equal(set.body.route, 'serverInfo');
  assert.deepEqual((await call('GET', '/faults')).body.faults.map((f) => f.id), [set.body.id]);

  const failed = await fetch(`${daemon.json}/serverinfo/*`);
  assert.equal(failed.status, 503);
  assert.equal((await failed.json()).code, 503);
  assert.equal((await fetch(`${daemon.json}/serverinfo/*`)).status, 200, 'a used-up fault is gone');
  assert.deepEqual((await call('GET', '/faults')).body.faults, []);

  const bad = await call('POST', '/faults', { route: 'nowhere', kind: 'drop' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.field, 'route');
  assert.match(bad.body.error.message, /accessToken/, 'the valid routes are listed');

  const kept = await call('POST', '/faults', { operation: 'token', kind: 'drop', untilCleared: true });
  assert.deepEqual((await call('DELETE', `/faults/${kept.body.id}`)).body, { cleared: [kept.body.id] });
  assert.equal((await call('DELETE', `/faults/${kept.body.id}`)).status, 404);
  assert.deepEqual((await call('DELETE', '/faults')).body, { cleared: [] });

  await call('POST', '/faults', { route: 'jwks', kind: 'drop', untilCleared: true });
  assert.equal((await call('POST', '/reset')).status, 200);
  assert.deepEqual((await call('GET', '/faults')).body.faults, [], 'a reset clears the faults');
});
