// The inspector's view of tokens and choices (docs/inspector.md): a login over stdio shows its
// grant with the access token's decoded claims and `active`; a revoked refresh token shows the
// grant and its tokens revoked; expiring a user's tokens through the admin API makes
// introspection say inactive and the native side refresh at its next getAccessToken (a
// TOKEN_EVENT the token-sync history lists); the scripted nodes of a loaded journey are offered
// with their outcomes, and choosing one from the page (headless Chromium, skipped with the reason
// when there is none) makes the journey waiting at that node take it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Browser, chromium, openTab, SKIP } from './chromium.mjs';
import { CLIENT_ID, DEMO, startDaemon } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const EXAMPLES = join(here, '..', '..', 'docs', 'examples', 'am-exports', 'Examples.journey.json');
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const form = (fields) => new URLSearchParams(fields).toString();

let daemon;
let inspector;
let scratch;
/** The script's step a VipLogin journey waits on (set by the test that starts it). */
let waiting;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'authbridge-inspector-world-'));
  // The script "Check VIP" sends a hidden value first, so a journey waits at it.
  const scenario = join(scratch, 'scenario.json');
  writeFileSync(scenario, JSON.stringify({
    journeys: { VipLogin: { 'Check VIP': { outcome: 'regular', callbacks: [{ type: 'HiddenValueCallback', id: 'vipToken' }] } } },
  }));
  daemon = await startDaemon(['--clock', 'virtual', '--seed', '11', '--journeys', EXAMPLES, '--scenario', scenario]);
  inspector = daemon.connection.stderr.match(/the inspector at (http:\/\/\S+\/inspector\/)/)?.[1];
});
after(() => {
  daemon?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A step with its callbacks' inputs filled by name, as JS sends it back. */
function answer(step, values) {
  const parsed = JSON.parse(step);
  for (const callback of parsed.callbacks) {
    for (const input of callback.input ?? []) if (input.name in values) input.value = values[input.name];
  }
  return JSON.stringify(parsed);
}

const state = async () => (await fetch(`${inspector}state`)).json();
const admin = (method, path, body) => fetch(`${daemon.origin}/emulator/v1/${path}`, {
  method, headers: { 'Content-Type': 'application/json', Origin: daemon.origin }, body: body && JSON.stringify(body),
});
const introspect = async (token) => (await fetch(`${daemon.oauth}/introspect`, {
  method: 'POST', headers: FORM, body: form({ client_id: CLIENT_ID, token }),
})).json();

/** Logs in over stdio (token sync listening) and answers the native side's tokens in full. */
async function login() {
  const step = await daemon.connection.request('login');
  await daemon.connection.request('next', [answer(step, { IDToken1: DEMO.username, IDToken2: DEMO.password })]);
  assert.equal((await daemon.nextEvent('TOKEN_EVENT')).reason, 'login');
  return JSON.parse(await daemon.connection.request('getAccessToken'));
}

test('a login over stdio shows its grant, the access token decoded and active, and the sync history', async () => {
  await daemon.connection.request('start');
  await daemon.connection.request('tokenSyncReady');
  await daemon.nextEvent('TOKEN_REQUEST_EVENT');
  const native = await login();
  const { grants, native: side } = await state();
  const grant = grants.find((g) => g.username === DEMO.username && g.state === 'active');
  assert.ok(grant, JSON.stringify(grants));
  const [token] = grant.accessTokens;
  assert.equal(token.state, 'active');
  assert.equal(token.header.alg, 'RS256');
  assert.equal(token.claims.tokenName, 'access_token');
  assert.equal(token.claims.authGrantId, grant.id);
  assert.equal(token.expiresAt, token.claims.exp);
  assert.equal(grant.idTokenClaims.tokenName, 'id_token');
  assert.ok(!JSON.stringify(grants).includes(native.value), 'never the token itself');
  assert.ok(!JSON.stringify(grants).includes(native.refreshToken), 'nor its refresh token');
  assert.equal(side.flavor, 'rn-ios');
  assert.equal(side.variant, 'sample');
  assert.deepEqual(side.history.map((t) => [t.kind, t.name, t.reason]),
    [['sent', 'TOKEN_REQUEST_EVENT', 'ready'], ['sent', 'TOKEN_EVENT', 'login']]);
});

test('expiring the user\'s tokens: introspection inactive, the native side refreshes, the history lists it', async () => {
  const before = JSON.parse(await daemon.connection.request('getAccessToken'));
  assert.equal((await introspect(before.value)).active, true);
  const expired = await admin('POST', `users/${DEMO.username}/tokens/expire`, {});
  assert.equal(expired.status, 200, await expired.clone().text());
  assert.deepEqual(await expired.json(), { accessTokensExpired: 1, nativeExpired: true });
  assert.deepEqual(await introspect(before.value), { active: false });
  const userinfo = await fetch(`${daemon.oauth}/userinfo`, { headers: { Authorization: `Bearer ${before.value}` } });
  assert.equal(userinfo.status, 401);

  const after = JSON.parse(await daemon.connection.request('getAccessToken'));
  assert.equal((await daemon.nextEvent('TOKEN_EVENT')).reason, 'refresh');
  assert.notEqual(after.value, before.value);
  assert.equal((await introspect(after.value)).active, true, 'a token issued after the expiry is live');

  const { grants, native } = await state();
  const grant = grants.find((g) => g.state === 'active' && g.username === DEMO.username);
  assert.deepEqual(grant.accessTokens.map((t) => t.state), ['expired', 'active']);
  assert.equal(typeof grant.accessTokens[0].expiredAt, 'number');
  assert.deepEqual(native.history.at(-1), { at: native.history.at(-1).at, kind: 'sent', name: 'TOKEN_EVENT', reason: 'refresh', generation: 2 });

  const unknown = await admin('POST', 'users/nobody/tokens/expire', {});
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).error.field, 'username');
  await assert.rejects(daemon.connection.request('emulator.expireTokens', { username: 'nobody' }),
    (error) => error.code === -32602 && error.data?.param === 'username');
});

test('a revoked refresh token shows its grant and its access tokens revoked', async () => {
  const native = JSON.parse(await daemon.connection.request('getAccessToken'));
  const revoked = await fetch(`${daemon.oauth}/token/revoke`, {
    method: 'POST', headers: FORM, body: form({ client_id: CLIENT_ID, token: native.refreshToken }),
  });
  assert.equal(revoked.status, 200);
  const { grants } = await state();
  const grant = grants.find((g) => g.state === 'revoked');
  assert.ok(grant, JSON.stringify(grants.map((g) => g.state)));
  assert.equal(typeof grant.endedAt, 'number');
  assert.ok(grant.accessTokens.length > 0 && grant.accessTokens.every((t) => t.state === 'revoked'));
  assert.deepEqual(await introspect(native.value), { active: false });
  await daemon.connection.request('logout');
});

/** VipLogin up to its script, which sends a hidden value: the journey then waits at "Check VIP". */
async function waitAtTheScript() {
  await daemon.connection.request('emulator.setServiceNames', { authServiceName: 'VipLogin' });
  const name = await daemon.connection.request('login');
  const password = await daemon.connection.request('next', [answer(name, { IDToken1: DEMO.username })]);
  return daemon.connection.request('next', [answer(password, { IDToken1: DEMO.password })]);
}

test('the scripted nodes are offered with their outcomes, the waiting journey first', async () => {
  waiting = await waitAtTheScript();
  assert.equal(JSON.parse(waiting).callbacks[0].type, 'HiddenValueCallback');
  const { scriptedNodes, journeys } = await state();
  assert.equal(scriptedNodes[0].journey, 'VipLogin');
  const node = scriptedNodes[0].nodes.find((n) => n.displayName === 'Check VIP');
  assert.deepEqual(node.outcomes, ['vip', 'regular']);
  assert.equal(node.chosen, 'regular');
  assert.equal(journeys.find((j) => j.journey === 'VipLogin').node, node.id, 'the journey waits at the script');
  // Left waiting: the next test answers it after choosing from the page (or it times out).
});

test('choosing an outcome from the page makes the waiting journey take it', { skip: SKIP }, async () => {
  const browser = new Browser(chromium);
  try {
    // A narrow window: the page must still work, its tables scrolling inside their sections.
    const { evaluate, until, key, close } = await openTab(browser, inspector, { width: 420, wait: 5000 });
    const journeyButton = `[...document.querySelectorAll('#journeys button')].find((b) => b.textContent === 'vip')`;
    await until(`${journeyButton} !== undefined`);
    assert.equal(await evaluate(`document.documentElement.scrollWidth <= window.innerWidth`), true, 'no sideways scroll of the page');
    assert.match(await evaluate(`${journeyButton}.getAttribute('aria-label')`), /^Outcome vip for Check VIP of VipLogin$/);
    // Every select in the scripted nodes' section has a label.
    assert.equal(await evaluate(`[...document.querySelectorAll('#scripted select')].every((s) => s.labels.length === 1)`), true);
    // As a keyboard user does: focus the button, then press Enter.
    await evaluate(`${journeyButton}.focus()`);
    await key('Enter');
    await until(`document.getElementById('scripted').textContent.includes('chosen now: vip')`);
    assert.equal(await evaluate(`document.activeElement.textContent`), 'vip', 'the button keeps the focus across the redraw');
    await close();
  } finally {
    await browser.close();
  }
  assert.equal((await state()).scriptedNodes[0].nodes[0].chosen, 'vip');
  // The stdio journey answers the script's step: "vip" leads to success ("regular" fails it).
  const done = await daemon.connection.request('next', [answer(waiting, { IDToken1: 'abc' })]);
  assert.equal(done.type, 'LoginSuccess');
  assert.equal((await daemon.nextEvent('TOKEN_EVENT')).reason, 'login');
  assert.ok((await state()).sessions.some((s) => s.journeys.includes('VipLogin')));
});
