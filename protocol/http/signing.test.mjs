// The embedded server's tokens as a backend sees them: the JWKS fetched over the HTTP face,
// ID and access tokens verified with node:crypto alone (RS256, ES256, PS256), a small resource
// server that accepts the access token by JWKS and refuses a tampered or expired one, and key
// rotation on the daemon's clock.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createPublicKey, verify, constants } from 'node:crypto';
import { startDaemon, CookieJar, loginOverHTTP, tokensOverHTTP, FORM, form, CLIENT_ID } from './support.mjs';

const daemons = [];
after(() => Promise.all(daemons.map((daemon) => daemon.close())));

async function daemonWith(args = []) {
  const daemon = await startDaemon(args);
  daemons.push(daemon);
  return daemon;
}

const decode = (part) => JSON.parse(Buffer.from(part, 'base64url').toString());

async function signIn(daemon) {
  const jar = new CookieJar();
  await loginOverHTTP(daemon, jar);
  const { body, status } = await tokensOverHTTP(daemon, jar);
  assert.equal(status, 200);
  return body;
}

async function jwks(daemon) {
  const discovery = await (await fetch(`${daemon.oauth}/.well-known/openid-configuration`)).json();
  return (await fetch(discovery.jwks_uri)).json();
}

/** A JWS checked as any backend would: the key its `kid` names, the algorithm that key is for. */
function verifyJWS(token, keys) {
  const [header, payload, signature] = token.split('.');
  const { alg, kid } = decode(header);
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk || jwk.alg !== alg) return null;
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const input = Buffer.from(`${header}.${payload}`);
  const sig = Buffer.from(signature, 'base64url');
  const valid = {
    RS256: () => verify('sha256', input, key, sig),
    ES256: () => verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, sig),
    PS256: () => verify('sha256', input, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, sig),
  }[alg]?.();
  return valid ? decode(payload) : null;
}

for (const alg of ['RS256', 'ES256', 'PS256']) {
  test(`an ${alg} id token and an RS256 access token verify against the JWKS with node:crypto`, async () => {
    const daemon = await daemonWith(alg === 'RS256' ? [] : ['--id-token-signing-alg', alg]);
    const discovery = await (await fetch(`${daemon.oauth}/.well-known/openid-configuration`)).json();
    assert.deepEqual(discovery.id_token_signing_alg_values_supported, ['RS256', 'ES256', 'PS256']);
    const body = await signIn(daemon);
    const { keys } = await jwks(daemon);
    for (const key of keys) {
      assert.equal(key.use, 'sig');
      assert.ok(key.kid);
      assert.deepEqual(Object.keys(key).sort(), (key.kty === 'RSA' ? ['alg', 'e', 'kid', 'kty', 'n', 'use'] : ['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']).sort());
    }
    assert.deepEqual(keys.map((key) => key.alg).sort(), [...new Set(['RS256', alg])].sort());

    const idHeader = decode(body.id_token.split('.')[0]);
    assert.equal(idHeader.alg, alg);
    assert.equal(idHeader.typ, 'JWT');
    const id = verifyJWS(body.id_token, keys);
    assert.equal(id?.tokenName, 'id_token');
    assert.equal(id.aud, CLIENT_ID);
    assert.equal(id.iss, discovery.issuer);

    const access = verifyJWS(body.access_token, keys);
    assert.equal(decode(body.access_token.split('.')[0]).alg, 'RS256');
    assert.equal(access?.tokenName, 'access_token');

    // Introspection agrees with what the signature says.
    const introspected = await (await fetch(`${daemon.oauth}/introspect`, {
      method: 'POST', headers: FORM, body: form({ token: body.access_token, client_id: CLIENT_ID }),
    })).json();
    assert.equal(introspected.active, true);
    assert.equal(introspected.sub, access.sub);
    assert.equal(introspected.exp, access.exp);
    assert.equal(introspected.authGrantId, access.authGrantId);
  });
}

/** The team's API: accepts a bearer token that the issuer's JWKS verifies and that has not expired at `now()`. */
async function resourceServer(jwksUri, now) {
  let cached = null;
  const server = createServer(async (request, response) => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    cached ??= (await (await fetch(jwksUri)).json()).keys;
    let claims = token ? verifyJWS(token, cached) : null;
    if (token && !claims) {
      // An unknown kid: the keys may have rotated; fetch them once more.
      cached = (await (await fetch(jwksUri)).json()).keys;
      claims = verifyJWS(token, cached);
    }
    const expired = claims && !(now() < claims.exp);
    const status = claims && !expired ? 200 : 401;
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(status === 200 ? { hello: claims.sub } : { error: expired ? 'expired' : 'invalid_token' }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    call: async (token) => {
      const response = await fetch(`http://127.0.0.1:${server.address().port}/api`, { headers: { Authorization: `Bearer ${token}` } });
      return { status: response.status, body: await response.json() };
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

test('a resource server accepts the access token by JWKS, refuses a tampered one and an expired one', async () => {
  const epoch = Math.floor(Date.now() / 1000);
  const daemon = await daemonWith(['--clock', `virtual=${epoch}`]);
  let now = epoch;
  const discovery = await (await fetch(`${daemon.oauth}/.well-known/openid-configuration`)).json();
  const api = await resourceServer(discovery.jwks_uri, () => now);
  try {
    const { access_token: token } = await signIn(daemon);
    const accepted = await api.call(token);
    assert.equal(accepted.status, 200);
    assert.equal(accepted.body.hello, decode(token.split('.')[1]).sub);

    const [header, payload, signature] = token.split('.');
    const claims = decode(payload);
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    assert.deepEqual(await api.call(`${header}.${forged}.${signature}`), { status: 401, body: { error: 'invalid_token' } });
    const flipped = Buffer.from(signature, 'base64url');
    flipped[10] ^= 1;
    assert.equal((await api.call(`${header}.${payload}.${flipped.toString('base64url')}`)).status, 401);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    assert.equal((await api.call(unsigned)).status, 401);

    ({ now } = await daemon.connection.request('emulator.advanceClock', { seconds: claims.exp - epoch }));
    assert.deepEqual(await api.call(token), { status: 401, body: { error: 'expired' } });
    const introspected = await (await fetch(`${daemon.oauth}/introspect`, {
      method: 'POST', headers: FORM, body: form({ token, client_id: CLIENT_ID }),
    })).json();
    assert.deepEqual(introspected, { active: false });
  } finally {
    await api.close();
  }
});

test('rotation: new tokens carry the new kid; the old key stays published until its tokens expire', async () => {
  const daemon = await daemonWith(['--clock', 'virtual', '--id-token-signing-alg', 'ES256']);
  const before = await signIn(daemon);
  const oldKids = (await jwks(daemon)).keys.map((key) => key.kid);

  const rotated = await daemon.connection.request('emulator.rotateSigningKeys', {});
  assert.deepEqual(rotated.keys.map((key) => key.alg), ['RS256', 'ES256']);
  assert.deepEqual(rotated.retired.map((key) => key.kid), oldKids);
  assert.ok(rotated.keys.every((key) => !oldKids.includes(key.kid)));
  const expires = decode(before.access_token.split('.')[1]).exp;
  assert.ok(rotated.retired.every((key) => key.publishedUntil >= expires));

  const after = await signIn(daemon);
  assert.equal(decode(after.access_token.split('.')[0]).kid, rotated.keys[0].kid);
  assert.equal(decode(after.id_token.split('.')[0]).kid, rotated.keys[1].kid);
  const { keys } = await jwks(daemon);
  assert.deepEqual(keys.map((key) => key.kid), [...rotated.keys, ...rotated.retired].map((key) => key.kid));
  assert.ok(verifyJWS(before.access_token, keys) && verifyJWS(before.id_token, keys));
  // The daemon still takes its old token while it lives.
  assert.equal((await fetch(`${daemon.oauth}/userinfo`, { headers: { Authorization: `Bearer ${before.access_token}` } })).status, 200);

  await daemon.connection.request('emulator.advanceClock', { seconds: 3600 });
  const later = (await jwks(daemon)).keys.map((key) => key.kid);
  assert.deepEqual(later, rotated.keys.map((key) => key.kid));
});
