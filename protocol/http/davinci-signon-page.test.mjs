// PingOne's sign-on page (docs/davinci.md, "The sign-on page"): a browser sent to `/as/authorize`
// without `pi.flow` and without a session lands on `/{env}/signon/`, which runs the flow as HTML
// forms and returns to the redirect URI with a code; driven here as a browser without script
// would: follow the redirect, read the form, post it back with the cookies PingOne set.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CLIENT_ID, CookieJar, DEMO, FORM, REDIRECT_URI, form, pkce, startDaemon } from './support.mjs';

let daemon;
let env;
before(async () => {
  daemon = await startDaemon(['--clock', 'virtual']);
  env = (await daemon.connection.request('emulator.davinciFlows', {})).environmentId;
});
after(() => daemon.close());

/** The page's form: its hidden fields and its field names, read from the HTML. */
function formOf(html) {
  const hidden = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)]
    .map(([, name, value]) => [name, value.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&')]));
  const fields = [...html.matchAll(/name="(field\.[^"]+)"/g)].map(([, name]) => name);
  const buttons = [...html.matchAll(/<button type="submit" name="action" value="([^"]+)"/g)].map(([, key]) => key);
  return { hidden, fields, buttons };
}

async function authorize(jar, extra = {}) {
  const { verifier, challenge } = await pkce();
  const query = form({
    client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid profile email',
    state: 'st4te', nonce: 'n-0S6', code_challenge: challenge, code_challenge_method: 'S256', ...extra,
  });
  return { response: await jar.fetch(`${daemon.origin}/${env}/as/authorize?${query}`), verifier };
}

/** Follows the authorize redirect to the page: its HTML. */
async function openPage(jar) {
  const { response, verifier } = await authorize(jar);
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get('location'));
  assert.equal(location.pathname, `/${env}/signon/`);
  const page = await jar.fetch(location.href);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type'), /^text\/html/);
  return { url: location.href, html: await page.text(), verifier };
}

async function post(jar, url, html, values, action) {
  const { hidden } = formOf(html);
  const body = new URLSearchParams({ ...hidden, ...values });
  if (action) body.append('action', action);
  return jar.fetch(url, { method: 'POST', headers: FORM, body: body.toString() });
}

test('no session: the page signs on (a wrong password first), then the code comes back and its tokens name PingOne', async () => {
  const jar = new CookieJar();
  const { url, html, verifier } = await openPage(jar);
  const shown = formOf(html);
  assert.deepEqual(shown.fields, ['field.username', 'field.password']);
  assert.deepEqual(shown.buttons, ['SIGNON', 'TROUBLE', 'REGISTER']);
  assert.doesNotMatch(html, /interactionToken/, 'the token stays in the HttpOnly cookie');

  const wrong = await post(jar, url, html, { 'field.username': DEMO.username, 'field.password': 'nope' }, 'SIGNON');
  assert.equal(wrong.status, 200);
  const again = await wrong.text();
  assert.match(again, /role="alert"/);
  assert.match(again, /value="demo"/, 'the username is kept');
  assert.doesNotMatch(again, /nope/, 'a password is never written back');

  const right = await post(jar, url, again, { 'field.username': DEMO.username, 'field.password': DEMO.password }, 'SIGNON');
  assert.equal(right.status, 302);
  const back = new URL(right.headers.get('location'));
  assert.equal(`${back.origin}${back.pathname}`, REDIRECT_URI);
  assert.equal(back.searchParams.get('state'), 'st4te');
  assert.ok(jar.cookies.get('ST'), 'the PingOne session cookie is set');

  const token = await jar.fetch(`${daemon.origin}/${env}/as/token`, {
    method: 'POST', headers: FORM,
    body: form({ grant_type: 'authorization_code', code: back.searchParams.get('code'), client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
  });
  assert.equal(token.status, 200);
  const { id_token: idToken } = await token.json();
  const claims = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url'));
  assert.equal(claims.iss, `${daemon.origin}/${env}/as`);
  assert.equal(claims.nonce, 'n-0S6');

  // With the session, the next authorize answers the code at once: no page.
  const { response } = await authorize(jar);
  assert.equal(response.status, 302);
  assert.ok(new URL(response.headers.get('location')).searchParams.get('code'));
});

test('a flow button takes the browser to another form (REGISTER), whose errors come back beside the fields', async () => {
  const jar = new CookieJar();
  const { url, html } = await openPage(jar);
  const registration = await post(jar, url, html, {}, 'REGISTER');
  assert.equal(registration.status, 200);
  const page = await registration.text();
  assert.deepEqual(formOf(page).fields, ['field.username', 'field.email', 'field.givenName', 'field.familyName', 'field.password']);
  const refused = await post(jar, url, page, { 'field.username': 'ada', 'field.email': 'ada@example.com', 'field.password': 'short' }, 'REGISTER');
  assert.equal(refused.status, 200);
  assert.match(await refused.text(), /class="error" role="alert"/);
});

test('prompt=none without a session is login_required, not the page; a tampered redirect URI is refused', async () => {
  const jar = new CookieJar();
  const { response } = await authorize(jar, { prompt: 'none' });
  assert.equal(new URL(response.headers.get('location')).searchParams.get('error'), 'login_required');

  const { url, html } = await openPage(jar);
  const tampered = html.replace(/redirect_uri=[^&"]+/, `redirect_uri=${encodeURIComponent('https://evil.example/cb')}`);
  const answer = await post(jar, url, tampered, { 'field.username': DEMO.username, 'field.password': DEMO.password }, 'SIGNON');
  assert.equal(answer.status, 400);
  assert.doesNotMatch(answer.headers.get('location') ?? '', /evil/);
});

test('a page posted after its interaction is gone says so and offers a fresh start', async () => {
  const jar = new CookieJar();
  const { url, html } = await openPage(jar);
  const stranger = new CookieJar();
  const answer = await post(stranger, url, html, { 'field.username': DEMO.username, 'field.password': DEMO.password }, 'SIGNON');
  assert.equal(answer.status, 400);
  const text = await answer.text();
  assert.match(text, /Start again/);
  assert.match(text, new RegExp(`href="/${env}/as/authorize\\?`));
});
