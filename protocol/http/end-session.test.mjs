// /connect/endSession's post_logout_redirect_uri is checked against the client's Post Logout
// Redirect URIs, a list of its own (AM's OAuth2 client setting; empty by default), not against its
// redirect URIs. A registered one is a 302 there (with the state); any other is AM's refusal,
// 400 redirect_uri_mismatch, and no redirect.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CookieJar, REDIRECT_URI, form, loginOverHTTP, startDaemon, tokensOverHTTP } from './support.mjs';

const SIGNED_OUT = 'http://localhost:3000/signed-out';
const CALLBACK = 'http://localhost:3000/callback';
const MISMATCH = {
  error_description: 'The redirection URI provided does not match a pre-registered value.', error: 'redirect_uri_mismatch',
};

let daemon;
before(async () => {
  daemon = await startDaemon(['--redirect-uri', CALLBACK, '--post-logout-redirect-uri', SIGNED_OUT, '--cors-origin', 'http://localhost:3000']);
});
after(() => daemon.close());

/** A fresh login's id token, and its jar (each end session ends the session it names). */
async function session(server) {
  const jar = new CookieJar();
  await loginOverHTTP(server, jar);
  const { body } = await tokensOverHTTP(server, jar);
  return { jar, idToken: body.id_token };
}

function endSession(server, query) {
  return fetch(`${server.oauth}/connect/endSession?${form(query)}`, { redirect: 'manual' });
}

test('a registered post_logout_redirect_uri: 302 there, with the state, the session ended', async () => {
  const { jar, idToken } = await session(daemon);
  const ended = await endSession(daemon, { id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT, state: 'a b' });
  assert.equal(ended.status, 302);
  assert.equal(ended.headers.get('location'), `${SIGNED_OUT}?state=a%20b`);
  const validate = await jar.fetch(`${daemon.json}/sessions?_action=validate`, { method: 'POST' });
  assert.deepEqual(await validate.json(), { valid: false });
});

test('an unregistered one, or one only in the redirect URIs, is refused as AM refuses it', async () => {
  for (const target of ['https://evil.example/', CALLBACK, REDIRECT_URI, `${SIGNED_OUT}/`, 'http://localhost:3000/Signed-Out']) {
    const { idToken } = await session(daemon);
    const refused = await endSession(daemon, { id_token_hint: idToken, post_logout_redirect_uri: target });
    assert.equal(refused.status, 400, target);
    assert.equal(refused.headers.get('location'), null, `no redirect to ${target}`);
    assert.deepEqual(await refused.json(), MISMATCH, target);
  }
});

test('without post_logout_redirect_uri there is nothing to check: 200', async () => {
  const { idToken } = await session(daemon);
  const ended = await endSession(daemon, { id_token_hint: idToken });
  assert.equal(ended.status, 200);
});

test('the default client registers no post-logout redirect URI, as AM’s setting starts empty', async () => {
  const plain = await startDaemon();
  try {
    const { idToken } = await session(plain);
    const refused = await endSession(plain, { id_token_hint: idToken, post_logout_redirect_uri: REDIRECT_URI });
    assert.equal(refused.status, 400);
    assert.deepEqual(await refused.json(), MISMATCH);
  } finally {
    plain.close();
  }
});
