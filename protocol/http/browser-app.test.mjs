// A browser app at http://localhost:3000 using the ForgeRock JavaScript SDK against the daemon
// started with the flags docs/http.md gives for it. Every SDK call is sent with the request
// shape the SDK (6d1ae39) gives it (method, headers, credentials), through BrowserPage, which
// does what the browser does around it: the preflight, the CORS checks, cookies. The hidden
// iframe's authorize is a navigation (no CORS) that must land on the app's own redirect URI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { BrowserPage, corsHeaders } from './browser.mjs';
import { SDK } from './forgerock-sdk.mjs';
import { CLIENT_ID, CookieJar, REDIRECT_URI, binary, form, pkce, startDaemon } from './support.mjs';

const APP = 'http://localhost:3000';
const CALLBACK = `${APP}/callback`;
const FLAGS = ['--public-url', 'http://localhost:8080/am', '--cors-origin', APP, '--redirect-uri', CALLBACK, '--post-logout-redirect-uri', CALLBACK];


let daemon;
before(async () => { daemon = await startDaemon(FLAGS); });
after(() => daemon.close());

/** FRAuth.next() twice: the Login journey's step, then the step back with the demo user. */
async function login(page) {
  const url = `${daemon.json}/authenticate?authIndexType=service&authIndexValue=Login`;
  const first = await page.fetch(url, SDK.authenticate(undefined));
  const step = await first.response.json();
  step.callbacks[0].input[0].value = 'demo';
  step.callbacks[1].input[0].value = 'Ch4ng3it!';
  const done = await page.fetch(url, SDK.authenticate(JSON.stringify(step)));
  return { first, done, body: await done.response.json() };
}

/** TokenManager.getTokens(): the iframe's authorize (prompt=none), then the code exchanged. */
async function tokens(page, redirectUri = CALLBACK) {
  const { verifier, challenge } = await pkce();
  const query = form({
    redirect_uri: redirectUri, client_id: CLIENT_ID, response_type: 'code', scope: 'openid profile email',
    state: 'st4te', code_challenge: challenge, code_challenge_method: 'S256', prompt: 'none',
  });
  const authorize = await page.navigate(`${daemon.oauth}/authorize?${query}`);
  const location = new URL(authorize.headers.get('location'));
  const body = form({ client_id: CLIENT_ID, code: location.searchParams.get('code'), grant_type: 'authorization_code', redirect_uri: redirectUri, code_verifier: verifier });
  const exchange = await page.fetch(`${daemon.oauth}/access_token`, SDK.accessToken(body));
  return { authorize, location, exchange, tokens: await exchange.response.json() };
}

test('the SDK from http://localhost:3000: login, tokens, user info, logout; every answer readable by the page', async () => {
  const page = new BrowserPage(APP, new CookieJar());
  const preflighted = { 'access-control-allow-origin': APP, 'access-control-allow-credentials': 'true' };
  // AM's CORS configuration for the SDKs exposes WWW-Authenticate on every answer.
  const allowed = { ...preflighted, 'access-control-expose-headers': 'WWW-Authenticate' };

  const { first, done, body } = await login(page);
  assert.equal(first.preflight.status, 204);
  assert.deepEqual(corsHeaders(first.preflight), {
    ...preflighted, 'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS', 'access-control-max-age': '600',
    'access-control-allow-headers': 'accept-api-version,content-type,x-requested-with',
  });
  assert.equal(first.preflight.headers.get('vary'), 'Origin');
  assert.equal(done.response.status, 200);
  assert.deepEqual(corsHeaders(done.response), allowed);
  assert.equal(page.jar.cookies.get('iPlanetDirectoryPro'), body.tokenId, 'the session cookie is kept (credentials: include)');

  // The iframe: a navigation, so no Origin and no CORS; the cookie goes; the 302 lands on the
  // app's own origin, where the SDK reads the code from the iframe's location. Nothing forbids framing.
  const { authorize, location, exchange, tokens: issued } = await tokens(page);
  assert.equal(authorize.status, 302);
  assert.deepEqual(corsHeaders(authorize), {});
  assert.equal(authorize.headers.get('x-frame-options'), null);
  assert.equal(authorize.headers.get('content-security-policy'), null);
  assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
  assert.equal(location.searchParams.get('state'), 'st4te');
  assert.equal(location.searchParams.get('iss'), 'http://localhost:8080/am/oauth2/realms/root/realms/alpha');
  // access_token: a form POST without credentials is a simple request: no preflight.
  assert.equal(exchange.preflight, null);
  assert.equal(exchange.response.status, 200);
  assert.deepEqual(corsHeaders(exchange.response), allowed);
  assert.ok(issued.access_token && issued.id_token && issued.refresh_token);

  // UserManager.getCurrentUser(): Authorization needs a preflight.
  const user = await page.fetch(`${daemon.oauth}/userinfo`, SDK.userInfo(issued.access_token));
  assert.equal(user.preflight.headers.get('access-control-allow-headers'), 'authorization');
  assert.deepEqual(corsHeaders(user.response), allowed);
  assert.equal((await user.response.json()).email, 'demo@example.com');

  // FRUser.logout(): sessions logout, revoke, endSession, in the SDK's order.
  const logout = await page.fetch(`${daemon.json}/sessions/?_action=logout`, SDK.sessionsLogout());
  assert.equal(logout.preflight.headers.get('access-control-allow-headers'), 'accept-api-version,x-requested-with');
  assert.equal(logout.response.status, 200);
  assert.deepEqual(corsHeaders(logout.response), allowed);
  assert.equal(page.jar.cookies.size, 0, 'the cookie is cleared');
  const revoke = await page.fetch(`${daemon.oauth}/token/revoke`, SDK.revoke(form({ client_id: CLIENT_ID, token: issued.access_token })));
  assert.equal(revoke.preflight, null);
  assert.equal(revoke.response.status, 200);
  assert.deepEqual(corsHeaders(revoke.response), allowed);
  const end = await page.fetch(`${daemon.oauth}/connect/endSession?${form({ id_token_hint: issued.id_token })}`, SDK.endSession(issued.access_token));
  assert.equal(end.preflight.headers.get('access-control-allow-headers'), 'authorization');
  assert.equal(end.response.status, 200);
  assert.deepEqual(corsHeaders(end.response), allowed);

  // Errors are readable too: the revoked token at userinfo.
  const refused = await page.fetch(`${daemon.oauth}/userinfo`, SDK.userInfo(issued.access_token));
  assert.equal(refused.response.status, 401);
  assert.deepEqual(corsHeaders(refused.response), allowed);
  assert.equal((await refused.response.json()).error, 'invalid_token');
  assert.match(refused.readable('WWW-Authenticate'), /^Bearer realm="\/alpha", error="invalid_token"/, 'the page can read the challenge');
  assert.equal(refused.readable('Set-Cookie'), null);
});

test('a preflight asking for a header AM does not accept is refused; cookie-named and SDK headers are accepted', async () => {
  const ask = (headers) => fetch(`${daemon.json}/authenticate`, {
    method: 'OPTIONS', headers: { Origin: APP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': headers },
  });
  const refused = await ask('content-type,x-debug');
  assert.equal(refused.status, 403);
  assert.equal(corsHeaders(refused)['access-control-allow-origin'], undefined);
  assert.match(await refused.text(), /^CORS: header x-debug is not accepted/);
  const accepted = await ask('x-requested-platform,iplanetdirectorypro,if-match');
  assert.equal(accepted.status, 204);
  assert.equal(accepted.headers.get('access-control-allow-headers'), 'x-requested-platform,iplanetdirectorypro,if-match');
});

test('an origin given with upper case and a default port matches what the browser sends', async () => {
  const other = await startDaemon(['--cors-origin', 'HTTP://LOCALHOST:80', '--cors-origin', 'https://App.Example.com:443']);
  try {
    for (const origin of ['http://localhost', 'https://app.example.com']) {
      const page = new BrowserPage(origin, new CookieJar());
      const { response } = await page.fetch(`${other.json}/authenticate?authIndexType=service&authIndexValue=Login`, SDK.authenticate());
      assert.equal(response.status, 200, origin);
    }
    await assert.rejects(new BrowserPage('http://localhost:8080', new CookieJar())
      .fetch(`${other.json}/authenticate?authIndexType=service&authIndexValue=Login`, SDK.authenticate()), /preflight answered 403/);
  } finally {
    other.close();
  }
});

test('a page on another origin gets no CORS answer: the browser keeps every response from it', async () => {
  const page = new BrowserPage('http://localhost:4000', new CookieJar());
  const url = `${daemon.json}/authenticate?authIndexType=service&authIndexValue=Login`;
  await assert.rejects(page.fetch(url, SDK.authenticate(undefined)), /preflight answered 403/);
  await assert.rejects(page.fetch(`${daemon.oauth}/access_token`, SDK.accessToken(form({ grant_type: 'refresh_token' }))),
    /response has no Access-Control-Allow-Origin/);

  // What the server answered, as the browser saw it before blocking.
  const asks = [
    [url, { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'accept-api-version,content-type,x-requested-with' } }],
    [`${daemon.oauth}/userinfo`, { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' } }],
    [`${daemon.oauth}/token/revoke`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form({ client_id: CLIENT_ID, token: 'x' }) }],
    [`${daemon.json}/sessions/?_action=logout`, { method: 'POST' }],
  ];
  for (const origin of ['http://localhost:4000', 'https://localhost:3000', 'http://127.0.0.1:3000', 'null']) {
    for (const [target, init] of asks) {
      const response = await fetch(target, { ...init, headers: { ...init.headers, Origin: origin } });
      await response.arrayBuffer();
      assert.deepEqual(corsHeaders(response), {}, `${origin} ${init.method} ${target}`);
    }
  }
});

test('the app’s redirect URI is registered beside the native one; anything else is refused as AM refuses it', async () => {
  const page = new BrowserPage(APP, new CookieJar());
  await login(page);
  const web = await tokens(page, CALLBACK);
  assert.equal(web.exchange.response.status, 200);
  const native = await tokens(page, REDIRECT_URI);
  assert.equal(`${native.location.origin}${native.location.pathname}`, REDIRECT_URI);
  assert.equal(native.exchange.response.status, 200);

  // Exact match, as AM compares: no trailing slash, other port, scheme or host name, no query.
  const { challenge } = await pkce();
  for (const redirectUri of [`${CALLBACK}/`, 'http://localhost:3001/callback', 'https://localhost:3000/callback',
    'http://127.0.0.1:3000/callback', `${CALLBACK}?next=/`, 'http://localhost:3000/CALLBACK']) {
    const query = form({ redirect_uri: redirectUri, client_id: CLIENT_ID, response_type: 'code', scope: 'openid', state: 's', code_challenge: challenge, prompt: 'none' });
    const refused = await page.navigate(`${daemon.oauth}/authorize?${query}`);
    assert.equal(refused.status, 400, redirectUri);
    assert.equal(refused.headers.get('location'), null, 'no redirect to an unregistered URI');
    assert.deepEqual(await refused.json(), {
      error_description: 'The redirection URI provided does not match a pre-registered value.', error: 'redirect_uri_mismatch',
    });
  }

  // A code issued for one registered URI is not exchanged with the other.
  const { verifier, challenge: c2 } = await pkce();
  const query = form({ redirect_uri: CALLBACK, client_id: CLIENT_ID, response_type: 'code', scope: 'openid', state: 's', code_challenge: c2, code_challenge_method: 'S256' });
  const code = new URL((await page.navigate(`${daemon.oauth}/authorize?${query}`)).headers.get('location')).searchParams.get('code');
  const swapped = await fetch(`${daemon.oauth}/access_token`, SDK.accessToken(form({ client_id: CLIENT_ID, code, grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, code_verifier: verifier })));
  assert.equal(swapped.status, 400);
  assert.equal((await swapped.json()).error, 'invalid_grant');

  // FRUser.logout({ redirect: true }): the SDK adds its redirectUri as post_logout_redirect_uri
  // (oauth2-client/index.ts request()), and endSession sends the browser back to the app.
  const end = await fetch(`${daemon.oauth}/connect/endSession?${form({ id_token_hint: web.tokens.id_token, post_logout_redirect_uri: CALLBACK })}`, { redirect: 'manual' });
  assert.equal(end.status, 302);
  assert.equal(end.headers.get('location'), CALLBACK);
});

test('a web redirect URI whose origin --cors-origin leaves out is warned about at start; the documented flags are not', async () => {
  assert.doesNotMatch(daemon.connection.stderr, /warn/);
  const alone = await startDaemon(['--redirect-uri', CALLBACK, '--redirect-uri', 'com.example.app:/callback', '--cors-origin', 'http://localhost:4000']);
  try {
    const warnings = alone.connection.stderr.split('\n').filter((line) => line.includes('warn'));
    assert.deepEqual(warnings, [
      'authbridge warn: --redirect-uri on http://localhost:3000 without --cors-origin http://localhost:3000: a browser app there cannot call the server (docs/http.md)',
    ]);
  } finally {
    alone.close();
  }
});

test('a --redirect-uri that is no absolute URI, or two for one remote app, stops the start saying why', () => {
  const remote = ['--server', 'http://127.0.0.1:1/am', '--realm', 'alpha', '--client-id', CLIENT_ID];
  const cases = [
    [['--redirect-uri', 'localhost:3000/callback'], /--redirect-uri needs an absolute URI .*got localhost:3000\/callback \(HOST:PORT without a scheme: write http:\/\/localhost:3000\/callback\)/],
    [['--redirect-uri', '/callback'], /got \/callback \(no scheme such as http: or com\.example\.app:\)/],
    [['--redirect-uri', `${CALLBACK}#done`], /a redirect URI has no fragment/],
    [['--redirect-uri', 'http:///callback'], /an http\(s\) URI names a host/],
    [['--redirect-uri', 'http://localhost:3000/my callback'], /no spaces or control characters/],
    [[...remote, '--redirect-uri', 'app:/a', '--redirect-uri', 'app:/b'], /--redirect-uri is given 2 times: a remote tenant's app has one redirect URI/],
  ];
  for (const [args, message] of cases) {
    const run = spawnSync(binary, args, { input: '', encoding: 'utf8' });
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, '');
  }
});
