// Faults on purpose over HTTP (docs/faults.md): each kind as a browser app using the ForgeRock
// JavaScript SDK sees it, its requests shaped as forgerock-sdk.mjs describes them (through
// BrowserPage: preflight, CORS checks, cookies), and everything working again once a fault is used up.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BrowserPage } from './browser.mjs';
import { SDK } from './forgerock-sdk.mjs';
import { CookieJar, startDaemon } from './support.mjs';

const APP = 'http://localhost:3000';

let daemon;
before(async () => { daemon = await startDaemon(['--cors-origin', APP, '--seed', '3', '--log-level', 'info']); });
after(() => daemon.close());

const fault = (spec) => daemon.connection.request('emulator.fault', spec);
const authenticateURL = () => `${daemon.json}/authenticate?authIndexType=service&authIndexValue=Login`;
const wellKnownURL = () => `${daemon.oauth}/.well-known/openid-configuration`;

/** Resolves once the plan is empty: every fault set so far has hit its requests. */
async function usedUp() {
  for (;;) {
    const { faults } = await daemon.connection.request('emulator.faults');
    if (faults.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('a status fault: the SDK reads AM\'s error body with its status, then the next request works', async () => {
  const page = new BrowserPage(APP, new CookieJar());
  await fault({ route: 'authenticate', kind: 'status', status: 500, message: 'Database down' });
  const failed = await page.fetch(authenticateURL(), SDK.authenticate(undefined));
  assert.equal(failed.response.status, 500);
  assert.deepEqual(await failed.response.json(), { code: 500, reason: 'Internal Server Error', message: 'Database down' });
  const step = await (await page.fetch(authenticateURL(), SDK.authenticate(undefined))).response.json();
  assert.equal(step.callbacks[0].type, 'NameCallback');
});

test('an operation fault reaches the HTTP face too: 401 with AM\'s body', async () => {
  const page = new BrowserPage(APP, new CookieJar());
  await fault({ operation: 'authenticate', kind: 'status', status: 401 });
  const failed = await page.fetch(authenticateURL(), SDK.authenticate(undefined));
  assert.equal(failed.response.status, 401);
  assert.deepEqual(await failed.response.json(), { code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
});

test('a path fault under the PingOne environment answers PingOne\'s body, readable by the page', async () => {
  const { environmentId } = await daemon.connection.request('emulator.davinciFlows', {});
  await fault({ path: `/${environmentId}/as/`, kind: 'status', status: 503, message: 'Maintenance' });
  const url = `${daemon.origin}/${environmentId}/as/.well-known/openid-configuration`;
  const failed = await fetch(url, { headers: { Origin: APP } });
  assert.equal(failed.status, 503);
  assert.equal(failed.headers.get('access-control-allow-origin'), APP);
  assert.deepEqual(await failed.json(), { code: 'UNEXPECTED_SERVER_ERROR', message: 'Maintenance' });
  assert.equal((await fetch(url)).status, 200);
});

test('a dropped connection: the SDK\'s fetch rejects, the next one is answered', async () => {
  const page = new BrowserPage(APP, new CookieJar());
  await fault({ path: '/am/json/', kind: 'drop' });
  await assert.rejects(page.fetch(authenticateURL(), SDK.authenticate(undefined)), TypeError);
  assert.equal((await page.fetch(authenticateURL(), SDK.authenticate(undefined))).response.status, 200);
});

test('a timeout: nothing comes, the SDK gives up on its own timer, then the connection closes unanswered', async () => {
  const page = new BrowserPage(APP, new CookieJar());
  await fault({ route: 'wellKnown', kind: 'timeout', seconds: 2 });
  const silent = page.fetch(wellKnownURL(), SDK.wellKnown());
  // The SDK's request timeout: a race against a timer, which the silence loses.
  const gaveUp = await Promise.race([silent.then(() => 'answered', () => 'closed'), usedUp().then(() => 'gave up')]);
  assert.equal(gaveUp, 'gave up');
  await assert.rejects(silent, TypeError, 'the connection closes with no response');
  assert.equal((await page.fetch(wellKnownURL(), SDK.wellKnown())).response.status, 200);
});

test('latency: a late response comes after another request sent later, and the daemon is not held meanwhile', async () => {
  const page = new BrowserPage(APP, new CookieJar());
  await fault({ route: 'wellKnown', kind: 'latency', seconds: 3 });
  const order = [];
  const late = page.fetch(wellKnownURL(), SDK.wellKnown()).then(async ({ response }) => {
    order.push('wellKnown');
    return response.json();
  });
  await usedUp(); // the late request has been handled: its answer waits on its connection
  const state = await daemon.connection.request('emulator.state'); // stdio is answered meanwhile
  order.push('stdio');
  assert.equal(typeof state.now, 'number');
  const step = await (await page.fetch(authenticateURL(), SDK.authenticate(undefined))).response.json();
  order.push('authenticate');
  assert.equal(step.callbacks[0].type, 'NameCallback');
  assert.equal((await late).issuer.endsWith('/oauth2/realms/root/realms/alpha'), true);
  assert.deepEqual(order, ['stdio', 'authenticate', 'wellKnown']);
});

test('a stdio call waiting out a latency fault does not hold the HTTP face', async () => {
  await daemon.connection.request('start');
  await fault({ operation: 'authenticate', kind: 'latency', seconds: 3 });
  const order = [];
  const login = daemon.connection.request('login').then((step) => { order.push('stdio login'); return step; });
  // The stdio face waits with the login's answer; its log line says the call was handled.
  while (!daemon.connection.stderr.includes('fault: authenticate answered 3.0 s late')) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const page = new BrowserPage(APP, new CookieJar());
  assert.equal((await page.fetch(wellKnownURL(), SDK.wellKnown())).response.status, 200);
  order.push('http');
  assert.equal(JSON.parse(await login).callbacks[0].type, 'NameCallback');
  assert.deepEqual(order, ['http', 'stdio login']);
});
