// An OIDC web client's sign-in in headless Chromium: the browser goes to /authorize (code flow,
// PKCE S256) for a redirect URI served by this test, lands on the server's login page, signs in
// there (a wrong password first, then demo / Ch4ng3it!), and arrives at the redirect URI with a
// code, which the test exchanges for tokens. A second client asks for a journey of two steps
// (credentials, then terms to accept) with acr_values. Chromium is Debian's `chromium`; without
// it the tests are skipped with the reason.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Browser, chromium, SKIP } from './chromium.mjs';
import { CLIENT_ID, DEMO, FORM, form, pkce, startDaemon } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const JOURNEYS = join(here, '..', '..', 'docs', 'examples', 'journeys.json');

let daemon;
let browser;
let app;
let redirectUri;
const arrivals = [];
const waiting = [];

before(async () => {
  if (!chromium) return;
  // The web client's redirect URI: a page of this test, which records what the browser brings.
  app = createServer((request, response) => {
    arrivals.push(request.url);
    for (const wake of waiting.splice(0)) wake();
    response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>app</title><p>back in the app</p>');
  });
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${app.address().port}/callback`;
  daemon = await startDaemon(['--redirect-uri', redirectUri, '--journeys', JOURNEYS]);
  browser = new Browser(chromium);
});
after(async () => {
  await browser?.close();
  daemon?.close();
  app?.close();
});

/** A tab whose page loads the test can wait for. */
async function openTab() {
  const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true });
  await browser.send('Page.enable', {}, sessionId);
  let loads = 0;
  const wakers = [];
  browser.listeners.push((message) => {
    if (message.sessionId === sessionId && message.method === 'Page.loadEventFired') {
      loads++;
      for (const wake of wakers.splice(0)) wake();
    }
  });
  const evaluate = async (expression) => {
    const { result, exceptionDetails } = await browser.send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
    if (exceptionDetails) throw new Error(`page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  };
  /** Runs `action` and resolves once the page it leads to has loaded. */
  const andWait = async (action) => {
    const before = loads;
    const loaded = new Promise((resolve) => {
      const check = () => (loads > before ? resolve() : wakers.push(check));
      check();
    });
    await action();
    await loaded;
  };
  return {
    goto: (url) => andWait(() => browser.send('Page.navigate', { url }, sessionId)),
    evaluate,
    /** Types into the page's fields (by name) and presses its first submit button. */
    submit: (values) => andWait(() => evaluate(`(() => {
      const values = ${JSON.stringify(values)};
      for (const [name, value] of Object.entries(values)) {
        const field = document.querySelector('[name="' + name + '"]');
        if (field.type === 'checkbox') field.checked = value === true; else field.value = value;
      }
      document.querySelector('button[type=submit]').click();
    })()`)),
    close: () => browser.send('Target.closeTarget', { targetId }),
  };
}

async function arrivalWithCode(state) {
  for (;;) {
    const found = arrivals.find((url) => new URL(url, redirectUri).searchParams.get('state') === state);
    if (found) return new URL(found, redirectUri);
    await new Promise((resolve) => waiting.push(resolve));
  }
}

async function authorizeURL(state, extra = {}) {
  const { verifier, challenge } = await pkce();
  const query = form({
    client_id: CLIENT_ID, redirect_uri: redirectUri, response_type: 'code', scope: 'openid profile', state,
    code_challenge: challenge, code_challenge_method: 'S256', ...extra,
  });
  return { verifier, url: `${daemon.oauth}/authorize?${query}` };
}

async function tokensFor(arrival, verifier) {
  const response = await fetch(`${daemon.oauth}/access_token`, {
    method: 'POST', headers: FORM,
    body: form({ grant_type: 'authorization_code', code: arrival.searchParams.get('code'), client_id: CLIENT_ID, redirect_uri: redirectUri, code_verifier: verifier }),
  });
  assert.equal(response.status, 200);
  return response.json();
}

test('Chromium signs in on the login page and lands on the redirect URI with a code', { skip: SKIP }, async () => {
  const tab = await openTab();
  const { verifier, url } = await authorizeURL('chromium-1');
  await tab.goto(url);
  assert.match(await tab.evaluate('location.pathname'), /^\/am\/UI\/Login$/);
  assert.equal(await tab.evaluate('document.title'), 'Sign In');

  await tab.submit({ IDToken1: DEMO.username, IDToken2: 'wrong password' });
  assert.equal(await tab.evaluate(`document.querySelector('.error').textContent`), 'Login failure');

  await tab.submit({ IDToken1: DEMO.username, IDToken2: DEMO.password });
  const arrival = await arrivalWithCode('chromium-1');
  assert.equal(arrival.pathname, '/callback');
  assert.equal(await tab.evaluate('location.origin + location.pathname'), redirectUri);
  const tokens = await tokensFor(arrival, verifier);
  assert.ok(tokens.access_token && tokens.id_token && tokens.refresh_token);
  const userinfo = await fetch(`${daemon.oauth}/userinfo`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  const idToken = JSON.parse(Buffer.from(tokens.id_token.split('.')[1], 'base64url'));
  assert.equal((await userinfo.json()).sub, idToken.sub);
  await tab.close();
});

test('Chromium runs a journey of two steps chosen by acr_values', { skip: SKIP }, async () => {
  // A new visitor: the first test's session would answer /authorize at once.
  await browser.send('Storage.clearCookies', {});
  const tab = await openTab();
  const { verifier, url } = await authorizeURL('chromium-2', { acr_values: 'AcceptTerms' });
  await tab.goto(url);
  await tab.submit({ IDToken1: DEMO.username, IDToken2: DEMO.password });
  assert.equal(await tab.evaluate(`document.querySelector('h1').textContent`), 'Our terms have changed');
  assert.match(await tab.evaluate(`document.querySelector('.terms').textContent`), /You agree to the new terms/);
  await tab.submit({ IDToken1: true });
  const arrival = await arrivalWithCode('chromium-2');
  assert.ok((await tokensFor(arrival, verifier)).access_token);
  await tab.close();
});

test("Chromium signs on at PingOne's sign-on page (a DaVinci flow as forms) and lands on the redirect URI", { skip: SKIP }, async () => {
  await browser.send('Storage.clearCookies', {});
  const env = (await daemon.connection.request('emulator.davinciFlows', {})).environmentId;
  const tab = await openTab();
  const { verifier, challenge } = await pkce();
  const query = form({
    client_id: CLIENT_ID, redirect_uri: redirectUri, response_type: 'code', scope: 'openid profile email',
    state: 'chromium-pingone', code_challenge: challenge, code_challenge_method: 'S256',
  });
  await tab.goto(`${daemon.origin}/${env}/as/authorize?${query}`);
  assert.equal(await tab.evaluate('location.pathname'), `/${env}/signon/`);
  assert.equal(await tab.evaluate(`document.activeElement.name`), 'field.username', 'the first field has the focus');

  await tab.submit({ 'field.username': DEMO.username, 'field.password': 'wrong password' });
  assert.ok(await tab.evaluate(`document.querySelector('.error') !== null`));
  await tab.submit({ 'field.username': DEMO.username, 'field.password': DEMO.password });
  const arrival = await arrivalWithCode('chromium-pingone');
  const response = await fetch(`${daemon.origin}/${env}/as/token`, {
    method: 'POST', headers: FORM,
    body: form({ grant_type: 'authorization_code', code: arrival.searchParams.get('code'), client_id: CLIENT_ID, redirect_uri: redirectUri, code_verifier: verifier }),
  });
  assert.equal(response.status, 200);
  const idToken = JSON.parse(Buffer.from((await response.json()).id_token.split('.')[1], 'base64url'));
  assert.equal(idToken.iss, `${daemon.origin}/${env}/as`);
  await tab.close();
});
