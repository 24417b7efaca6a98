// AM's REST API over HTTP, driven with fetch as a web app's SDK drives it: journeys, sessions,
// the OAuth endpoints, discovery and AM's errors (CORS: browser-app.test.mjs). One daemon per test file.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  CLIENT_ID, CookieJar, FORM, REDIRECT_URI, form, loginOverHTTP, pkce, startDaemon, tokensOverHTTP,
} from './support.mjs';

let daemon;
before(async () => { daemon = await startDaemon(); });
after(() => daemon.close());

test('a journey over HTTP sets the session cookie, and sessions see it until logout', async () => {
  const jar = new CookieJar();
  const success = await loginOverHTTP(daemon, jar);
  assert.equal(success.status, 200);
  assert.equal(success.headers.get('content-api-version'), 'resource=2.1');
  const body = await success.json();
  assert.deepEqual(Object.keys(body), ['tokenId', 'successUrl', 'realm']);
  assert.equal(jar.cookies.get('iPlanetDirectoryPro'), body.tokenId);

  const sessions = `${daemon.json}/sessions`;
  const validate = await (await jar.fetch(`${sessions}?_action=validate`, { method: 'POST' })).json();
  assert.deepEqual(validate, { valid: true, uid: 'demo', realm: '/alpha' });
  const info = await jar.fetch(`${sessions}?_action=getSessionInfo`, { method: 'POST', headers: { 'Accept-API-Version': 'resource=4' } });
  assert.equal(info.headers.get('content-api-version'), 'resource=4.1');
  assert.equal((await info.json()).username, 'demo');
  // The iOS SDK names the session in a header called like the cookie, and in the body.
  const byHeader = await fetch(`${sessions}?_action=validate`, { method: 'POST', headers: { iPlanetDirectoryPro: body.tokenId } });
  assert.equal((await byHeader.json()).valid, true);

  // Already signed in: the journey the session came from hands back the session, unless ForceAuth
  // asks for it to run; a journey the session has not completed runs (session upgrade).
  const again = await jar.fetch(`${daemon.json}/authenticate?authIndexType=service&authIndexValue=Login`, { method: 'POST' });
  assert.equal((await again.json()).tokenId, body.tokenId);
  const forced = await jar.fetch(`${daemon.json}/authenticate?authIndexType=service&authIndexValue=Login&ForceAuth=true`, { method: 'POST' });
  assert.ok((await forced.json()).authId);
  const other = await jar.fetch(`${daemon.json}/authenticate?authIndexType=service&authIndexValue=PlatformLogin`, { method: 'POST' });
  assert.ok((await other.json()).authId);

  const logout = await jar.fetch(`${sessions}/?_action=logout`, { method: 'POST' });
  assert.equal(logout.status, 200);
  assert.deepEqual(await logout.json(), { result: 'Successfully logged out' });
  assert.equal(jar.cookies.size, 0, 'the cookie is cleared');
  const after = await fetch(`${sessions}?_action=validate`, { method: 'POST', body: JSON.stringify({ tokenId: body.tokenId }) });
  assert.deepEqual(await after.json(), { valid: false });
  const secondLogout = await fetch(`${sessions}?_action=logout`, { method: 'POST', headers: { iPlanetDirectoryPro: body.tokenId } });
  assert.equal(secondLogout.status, 401);
  assert.deepEqual(await secondLogout.json(), { code: 401, reason: 'Unauthorized', message: 'Access Denied' });
});

test('a wrong password is 401 Login failure; noSession and composite advice work', async () => {
  const failed = await loginOverHTTP(daemon, new CookieJar(), { password: 'wrong' });
  assert.equal(failed.status, 401);
  assert.match(failed.headers.get('content-type'), /^application\/json/);
  assert.deepEqual(await failed.json(), { code: 401, reason: 'Unauthorized', message: 'Login failure' });

  const jar = new CookieJar();
  const headers = { 'Content-Type': 'application/json' };
  const first = await (await fetch(`${daemon.json}/authenticate?authIndexType=service&authIndexValue=Login&noSession=true`, { method: 'POST', headers })).json();
  first.callbacks[0].input[0].value = 'demo';
  first.callbacks[1].input[0].value = 'Ch4ng3it!';
  const done = await jar.fetch(`${daemon.json}/authenticate`, { method: 'POST', headers, body: JSON.stringify(first) });
  assert.deepEqual(await done.json(), { successUrl: '/enduser/?realm=/alpha', realm: '/alpha' });
  assert.equal(jar.cookies.size, 0);

  const advice = '<Advices><AttributeValuePair><Attribute name="AuthenticateToServiceConditionAdvice"/><Value>/alpha:Login</Value></AttributeValuePair></Advices>';
  const stepUp = await fetch(`${daemon.json}/authenticate?${form({ authIndexType: 'composite_advice', authIndexValue: advice })}`, { method: 'POST' });
  assert.equal((await stepUp.json()).stage, 'UsernamePassword');
  const txn = advice.replace('AuthenticateToServiceConditionAdvice', 'TransactionConditionAdvice');
  const refused = await fetch(`${daemon.json}/authenticate?${form({ authIndexType: 'composite_advice', authIndexValue: txn })}`, { method: 'POST' });
  assert.equal(refused.status, 400);
  assert.match((await refused.json()).message, /TransactionConditionAdvice/);
});

test('authorize with the session and PKCE S256, then every token endpoint', async () => {
  const jar = new CookieJar();
  await loginOverHTTP(daemon, jar);
  const { redirect, location, body, status } = await tokensOverHTTP(daemon, jar);
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get('cache-control'), 'no-store');
  assert.equal(`${location.origin}${location.pathname}`, REDIRECT_URI);
  assert.equal(location.searchParams.get('state'), 'st4te');
  assert.equal(location.searchParams.get('iss'), daemon.oauth);
  assert.equal(status, 200);
  assert.deepEqual(Object.keys(body), ['access_token', 'refresh_token', 'scope', 'id_token', 'token_type', 'expires_in']);

  const bearer = { Authorization: `Bearer ${body.access_token}` };
  const user = await (await fetch(`${daemon.oauth}/userinfo`, { headers: bearer })).json();
  assert.equal(user.name, 'Demo User');
  assert.equal(user.email, 'demo@example.com');

  const introspect = (token) => fetch(`${daemon.oauth}/introspect`, { method: 'POST', headers: FORM, body: form({ token, client_id: CLIENT_ID }) }).then((r) => r.json());
  assert.equal((await introspect(body.access_token)).active, true);

  const refreshed = await (await fetch(`${daemon.oauth}/access_token`, {
    method: 'POST', headers: FORM, body: form({ grant_type: 'refresh_token', refresh_token: body.refresh_token, client_id: CLIENT_ID }),
  })).json();
  assert.ok(refreshed.access_token && refreshed.refresh_token !== body.refresh_token);

  const exchanged = await (await fetch(`${daemon.oauth}/access_token`, {
    method: 'POST', headers: FORM,
    body: form({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', client_id: CLIENT_ID, subject_token: refreshed.access_token,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    }),
  })).json();
  assert.equal(exchanged.issued_token_type, 'urn:ietf:params:oauth:token-type:access_token');

  const revoked = await fetch(`${daemon.oauth}/token/revoke`, { method: 'POST', headers: FORM, body: form({ token: refreshed.access_token, client_id: CLIENT_ID }) });
  assert.equal(revoked.status, 200);
  assert.deepEqual(await introspect(refreshed.access_token), { active: false });
  const refusedUser = await fetch(`${daemon.oauth}/userinfo`, { headers: { Authorization: `Bearer ${refreshed.access_token}` } });
  assert.equal(refusedUser.status, 401);
  assert.match(refusedUser.headers.get('www-authenticate'), /^Bearer realm="\/alpha", error="invalid_token"/);
  assert.equal((await refusedUser.json()).error, 'invalid_token');

  const reused = await fetch(`${daemon.oauth}/access_token`, {
    method: 'POST', headers: FORM, body: form({ grant_type: 'refresh_token', refresh_token: body.refresh_token, client_id: CLIENT_ID }),
  });
  assert.equal(reused.status, 400);
  assert.equal((await reused.json()).error, 'invalid_grant');

  const ended = await fetch(`${daemon.oauth}/connect/endSession?${form({ id_token_hint: body.id_token })}`);
  assert.equal(ended.status, 200);
  const validate = await jar.fetch(`${daemon.json}/sessions?_action=validate`, { method: 'POST' });
  assert.deepEqual(await validate.json(), { valid: false });
});

test("authorize's nonce is the id token's nonce, and a refreshed id token has none", async () => {
  const jar = new CookieJar();
  await loginOverHTTP(daemon, jar);
  const { verifier, challenge } = await pkce();
  const query = form({
    client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid profile', state: 's',
    code_challenge: challenge, code_challenge_method: 'S256', nonce: 'n-0S6_WzA2Mj',
  });
  const code = new URL((await jar.fetch(`${daemon.oauth}/authorize?${query}`)).headers.get('location')).searchParams.get('code');
  const issued = await (await fetch(`${daemon.oauth}/access_token`, {
    method: 'POST', headers: FORM,
    body: form({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
  })).json();
  const claims = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
  assert.equal(claims(issued.id_token).nonce, 'n-0S6_WzA2Mj');
  const refreshed = await (await fetch(`${daemon.oauth}/access_token`, {
    method: 'POST', headers: FORM, body: form({ grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_id: CLIENT_ID }),
  })).json();
  assert.equal(claims(refreshed.id_token).nonce, undefined);
});

test('authorize without a session, prompt=none and form_post', async () => {
  const { challenge } = await pkce();
  const base = { client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid', state: 'x1', code_challenge: challenge, code_challenge_method: 'S256' };
  const none = await fetch(`${daemon.oauth}/authorize?${form({ ...base, prompt: 'none' })}`, { redirect: 'manual' });
  assert.equal(none.status, 302);
  const location = new URL(none.headers.get('location'));
  assert.equal(location.searchParams.get('error'), 'interaction_required');
  assert.equal(location.searchParams.get('state'), 'x1');

  const jar = new CookieJar();
  await loginOverHTTP(daemon, jar);
  const posted = await jar.fetch(`${daemon.oauth}/authorize`, { method: 'POST', headers: FORM, body: form({ ...base, response_mode: 'form_post' }) });
  assert.equal(posted.status, 200);
  const page = await posted.text();
  assert.match(page, new RegExp(`<form method="post" action="${REDIRECT_URI}">`));
  assert.match(page, /<input type="hidden" name="code" value="[A-Za-z0-9_-]+"\/>/);
  assert.match(page, /<input type="hidden" name="state" value="x1"\/>/);

  const badClient = await fetch(`${daemon.oauth}/authorize?${form({ ...base, client_id: 'nobody' })}`, { redirect: 'manual' });
  assert.equal(badClient.status, 400);
  assert.equal((await badClient.json()).error, 'invalid_client');
});

test('discovery names the URL actually served and its key set', async () => {
  const document = await (await fetch(`${daemon.oauth}/.well-known/openid-configuration`)).json();
  assert.equal(document.issuer, daemon.oauth);
  assert.equal(document.authorization_endpoint, `${daemon.oauth}/authorize`);
  assert.deepEqual(document.code_challenge_methods_supported, ['S256', 'plain']);
  assert.equal(document.jwks_uri, `${daemon.oauth}/connect/jwk_uri`);
  const { keys } = await (await fetch(document.jwks_uri)).json();
  assert.deepEqual(keys.map((key) => [key.kty, key.alg, key.use]), [['RSA', 'RS256', 'sig']]);
  // AM's other path layouts reach the same endpoints.
  for (const path of ['/am/oauth2/realms/alpha/.well-known/openid-configuration', '/am/oauth2/alpha/.well-known/openid-configuration', '/oauth2/realms/root/realms/alpha/.well-known/openid-configuration']) {
    assert.equal((await fetch(`${daemon.origin}${path}`)).status, 200, path);
  }
  const info = await (await fetch(`${daemon.json}/serverinfo/*`)).json();
  assert.equal(info.cookieName, 'iPlanetDirectoryPro');
});

test("AM's errors: unknown paths, other realms, methods, versions, bodies, bearer tokens", async () => {
  const missing = await fetch(`${daemon.origin}/am/json/realms/root/realms/alpha/nothing`);
  assert.equal(missing.status, 404);
  assert.deepEqual(await missing.json(), { code: 404, reason: 'Not Found', message: "Resource '/am/json/realms/root/realms/alpha/nothing' not found" });
  const realm = await fetch(`${daemon.origin}/am/json/realms/root/realms/beta/authenticate`, { method: 'POST' });
  assert.equal(realm.status, 404);
  assert.match((await realm.json()).message, /Realm 'beta' not found/);
  const method = await fetch(`${daemon.json}/authenticate`);
  assert.equal(method.status, 405);
  assert.equal(method.headers.get('allow'), 'POST');
  const version = await fetch(`${daemon.json}/authenticate`, { method: 'POST', headers: { 'Accept-API-Version': 'resource=9.0' } });
  assert.equal(version.status, 404);
  assert.equal((await version.json()).message, 'Accept-API-Version: Requested version "9.0" does not match any routes.');
  const body = await fetch(`${daemon.json}/authenticate`, { method: 'POST', body: '{not json' });
  assert.equal(body.status, 400);
  const action = await fetch(`${daemon.json}/sessions?_action=getProperty`, { method: 'POST' });
  assert.equal(action.status, 501);
  const noToken = await fetch(`${daemon.oauth}/userinfo`);
  assert.equal(noToken.status, 401);
  assert.equal(noToken.headers.get('www-authenticate'), 'Bearer realm="/alpha"');
  const grant = await fetch(`${daemon.oauth}/access_token`, { method: 'POST', headers: FORM, body: form({ grant_type: 'password' }) });
  assert.equal(grant.status, 400);
  assert.equal((await grant.json()).error, 'unsupported_grant_type');
});
