// The login page over plain HTTP, as a browser without scripts would use it: /authorize without
// a session sends it to the page, the page's forms run the journey (a wrong password first), the
// session cookie comes back with the redirect to /authorize, which answers with the code.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLIENT_ID, CookieJar, DEMO, FORM, REDIRECT_URI, form, pkce, startDaemon } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const JOURNEYS = join(here, '..', '..', 'docs', 'examples', 'journeys.json');

let daemon;
before(async () => { daemon = await startDaemon(['--journeys', JOURNEYS]); });
after(() => daemon?.close());

const entities = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (text) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => entities[entity]);

/** The page's form: its action, its hidden fields and the names of its other fields. */
function parsePage(html) {
  const action = unescape(/<form method="post" action="([^"]*)">/.exec(html)?.[1] ?? '');
  const hidden = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/?>/g)]
    .map(([, name, value]) => [unescape(name), unescape(value)]));
  const fields = [...html.matchAll(/<(?:input type="(?:text|password|checkbox|radio|number)"|select|button type="submit") name="([^"]*)"/g)]
    .map(([, name]) => unescape(name));
  const error = /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];
  return { action, hidden, fields, error: error === undefined ? undefined : unescape(error) };
}

async function authorizeQuery(extra = {}) {
  const { verifier, challenge } = await pkce();
  const query = form({
    client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid profile', state: 'st8',
    code_challenge: challenge, code_challenge_method: 'S256', ...extra,
  });
  return { verifier, query };
}

/** Posts the page's form with these fields filled in. */
async function submit(jar, page, values) {
  const { action, hidden } = parsePage(await page.text());
  return jar.fetch(`${daemon.origin}${action}`, { method: 'POST', headers: FORM, body: form({ ...hidden, ...values }) });
}

async function exchange(location, verifier) {
  const code = new URL(location).searchParams.get('code');
  assert.ok(code, `no code in ${location}`);
  const response = await fetch(`${daemon.oauth}/access_token`, {
    method: 'POST', headers: FORM,
    body: form({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
  });
  assert.equal(response.status, 200);
  return response.json();
}

test('authorize without a session: the page, a wrong password, then the code', async () => {
  const jar = new CookieJar();
  const { verifier, query } = await authorizeQuery();
  const authorize = await jar.fetch(`${daemon.oauth}/authorize?${query}`);
  assert.equal(authorize.status, 302);
  const pageURL = authorize.headers.get('location');
  assert.match(pageURL, /^\/am\/UI\/Login\?realm=%2Falpha&goto=%2Fam%2Foauth2%2Frealms%2Froot%2Frealms%2Falpha%2Fauthorize%3F/);

  const first = await jar.fetch(`${daemon.origin}${pageURL}`);
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('content-type'), 'text/html;charset=UTF-8');
  const wrong = await submit(jar, first, { IDToken1: DEMO.username, IDToken2: 'not-it' });
  assert.equal(wrong.status, 200);
  const retry = parsePage(await wrong.clone().text());
  assert.equal(retry.error, 'Login failure');
  assert.deepEqual(retry.fields, ['IDToken1', 'IDToken2']);

  const signedIn = await submit(jar, wrong, { IDToken1: DEMO.username, IDToken2: DEMO.password });
  assert.equal(signedIn.status, 302);
  assert.equal(signedIn.headers.get('location'), `/am/oauth2/realms/root/realms/alpha/authorize?${query}`);
  assert.ok(jar.cookies.get('iPlanetDirectoryPro'));

  const back = await jar.fetch(`${daemon.origin}${signedIn.headers.get('location')}`);
  assert.equal(back.status, 302);
  const location = back.headers.get('location');
  assert.ok(location.startsWith(`${REDIRECT_URI}?code=`), location);
  assert.equal(new URL(location).searchParams.get('state'), 'st8');
  const tokens = await exchange(location, verifier);
  assert.ok(tokens.access_token && tokens.id_token);
});

test('acr_values names a journey of two steps; form_post answers the code as a form', async () => {
  const jar = new CookieJar();
  const { verifier, query } = await authorizeQuery({ acr_values: 'AcceptTerms', response_mode: 'form_post' });
  const authorize = await jar.fetch(`${daemon.oauth}/authorize?${query}`);
  assert.match(authorize.headers.get('location'), /^\/am\/UI\/Login\?realm=%2Falpha&service=AcceptTerms&goto=/);
  const credentials = await jar.fetch(`${daemon.origin}${authorize.headers.get('location')}`);
  const terms = await submit(jar, credentials, { IDToken1: DEMO.username, IDToken2: DEMO.password });
  const termsPage = parsePage(await terms.clone().text());
  assert.deepEqual(termsPage.fields, ['IDToken1']);
  assert.match(await terms.clone().text(), /<h1>Our terms have changed<\/h1>/);
  const signedIn = await submit(jar, terms, { IDToken1: 'true' });
  assert.equal(signedIn.status, 302);
  const back = await jar.fetch(`${daemon.origin}${signedIn.headers.get('location')}`);
  assert.equal(back.status, 200);
  const posted = parsePage(await back.text());
  assert.equal(posted.action, REDIRECT_URI);
  const tokens = await exchange(`${REDIRECT_URI}?code=${posted.hidden.code}`, verifier);
  assert.ok(tokens.access_token);
});

test('prompt=login ends the session and asks again; prompt=none keeps the error; a stranger is refused', async () => {
  const jar = new CookieJar();
  const { query } = await authorizeQuery();
  const page = await jar.fetch(`${daemon.origin}${(await jar.fetch(`${daemon.oauth}/authorize?${query}`)).headers.get('location')}`);
  await submit(jar, page, { IDToken1: DEMO.username, IDToken2: DEMO.password });
  const old = jar.cookies.get('iPlanetDirectoryPro');

  const again = await authorizeQuery({ prompt: 'login' });
  const fresh = await jar.fetch(`${daemon.oauth}/authorize?${again.query}`);
  assert.equal(fresh.status, 302);
  const goto = new URL(fresh.headers.get('location'), daemon.origin).searchParams.get('goto');
  assert.ok(!goto.includes('prompt'), goto);
  const validate = await fetch(`${daemon.json}/sessions?_action=validate`, { method: 'POST', headers: { Cookie: `iPlanetDirectoryPro=${old}` } });
  assert.deepEqual(await validate.json(), { valid: false });

  const none = await fetch(`${daemon.oauth}/authorize?${(await authorizeQuery({ prompt: 'none' })).query}`, { redirect: 'manual' });
  assert.equal(new URL(none.headers.get('location')).searchParams.get('error'), 'interaction_required');
  // `none` with `login` is refused as AM refuses it (OpenIdPrompt.isValid): bad_request at the redirect URI, no page.
  const both = await jar.fetch(`${daemon.oauth}/authorize?${(await authorizeQuery({ prompt: 'none login' })).query}`);
  assert.equal(both.status, 302);
  const refused = new URL(both.headers.get('location'));
  assert.equal(refused.searchParams.get('error'), 'bad_request');
  assert.equal(refused.searchParams.get('error_description'), 'Prompt parameter none login is invalid or unsupported');
  assert.ok(refused.searchParams.get('state'));

  const stranger = await fetch(`${daemon.oauth}/authorize?${(await authorizeQuery({ redirect_uri: 'https://evil.example/cb' })).query}`, { redirect: 'manual' });
  assert.equal(stranger.status, 400);
  assert.equal((await stranger.json()).error, 'redirect_uri_mismatch');
  const elsewhere = await fetch(`${daemon.origin}/am/UI/Login?goto=${encodeURIComponent('https://evil.example/')}`, { redirect: 'manual' });
  assert.equal(elsewhere.status, 400);
  assert.equal(elsewhere.headers.get('location'), null);
});
