// The inspector (docs/inspector.md): its URL on stderr and in daemon.hello, its live feed
// (server-sent events) showing a login made over stdio, the admin API taking the page's own
// origin, the e-mailed one-time code in its snapshot; then the page itself in headless Chromium
// (skipped with the reason when there is none): the timeline shows a stdio login, a fault injected
// from the page is seen by the next HTTP request, the e-mailed code is on the page, approving a
// push from the page completes a push journey waiting over stdio. With INSPECTOR_SCREENSHOTS=DIR
// the page is captured at 1280×800 (docs/inspector.md's screenshots).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Browser, chromium, openTab, SKIP } from './chromium.mjs';
import { DEMO, startDaemon } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
let daemon;
let inspector;

before(async () => {
  daemon = await startDaemon(['--clock', 'virtual', '--seed', '7']);
  inspector = daemon.connection.stderr.match(/the inspector at (http:\/\/\S+\/inspector\/)/)?.[1];
});
after(() => daemon?.close());

/** A step with its callbacks' inputs filled by name, as JS sends it back. */
function answer(step, values) {
  const parsed = JSON.parse(step);
  for (const callback of parsed.callbacks) {
    for (const input of callback.input ?? []) if (input.name in values) input.value = values[input.name];
  }
  return JSON.stringify(parsed);
}

/** Reads server-sent events from `url` until `wanted(event)` holds; rejects after `ms`. */
async function eventMatching(url, wanted, ms = 1000) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const response = await fetch(url, { signal: controller.signal });
    assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const frame = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event = frame.match(/^event: (.*)$/m)?.[1];
        const data = frame.match(/^data: (.*)$/m)?.[1];
        if (event && data && wanted(event, JSON.parse(data))) return { event, data: JSON.parse(data) };
      }
    }
    throw new Error('the stream ended');
  } catch (error) {
    if (controller.signal.aborted) throw new Error(`no matching event within ${ms} ms`);
    throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

async function secondFactorByEmail(connection) {
  await connection.request('emulator.setServiceNames', { authServiceName: 'SecondFactor' });
  const first = await connection.request('login');
  const choice = await connection.request('next', [answer(first, { IDToken1: DEMO.username, IDToken2: DEMO.password })]);
  return connection.request('next', [answer(choice, { IDToken1: 0 })]);
}

test('the URL is printed on stderr and given by daemon.hello', async () => {
  assert.equal(inspector, `${daemon.origin}/inspector/`);
  const hello = await daemon.connection.request('daemon.hello');
  assert.equal(hello.http.inspector, inspector);
  const page = await fetch(inspector);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-security-policy'), /^default-src 'none'; script-src 'self';/);
});

test('a login over stdio reaches the live feed within a second', async () => {
  const seen = eventMatching(`${inspector}events`, (event, data) =>
    event === 'timeline' && data.some((entry) => entry.face === 'stdio' && entry.name === 'login'));
  await daemon.connection.request('start');
  const step = await daemon.connection.request('login');
  await daemon.connection.request('next', [answer(step, { IDToken1: DEMO.username, IDToken2: DEMO.password })]);
  const { data } = await seen;
  const login = data.find((entry) => entry.name === 'login');
  assert.equal(typeof login.ms, 'number');
  const timeline = await (await fetch(`${inspector}timeline`)).json();
  const next = timeline.entries.find((entry) => entry.name === 'next');
  assert.ok(next, 'the next call is kept');
  assert.ok(!JSON.stringify(next).includes(DEMO.password), 'the password is redacted');
  const state = await (await fetch(`${inspector}state`)).json();
  assert.equal(state.sessions[0].username, DEMO.username);
  assert.match(state.native.tokens.accessToken, /^.{8}…$/);
  await daemon.connection.request('logout');
});

test("the admin API takes the page's own origin, and a fault set there is seen by the next request", async () => {
  const set = await fetch(`${daemon.origin}/emulator/v1/faults`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Origin: daemon.origin },
    body: JSON.stringify({ route: 'wellKnown', kind: 'status', status: 503 }),
  });
  assert.equal(set.status, 201, await set.clone().text());
  const discovery = await fetch(`${daemon.oauth}/.well-known/openid-configuration`);
  assert.equal(discovery.status, 503);
  const cleared = await fetch(`${daemon.origin}/emulator/v1/faults`, { method: 'DELETE', headers: { Origin: daemon.origin } });
  assert.equal(cleared.status, 200);
  const other = await fetch(`${daemon.origin}/emulator/v1/faults`, { headers: { Origin: 'http://localhost:3000' } });
  assert.equal(other.status, 403, 'another origin is still refused');
});

test("ending a session by its opsId (the page's End) logs the native side out", async () => {
  await daemon.connection.request('tokenSyncReady');
  const step = await daemon.connection.request('login');
  await daemon.connection.request('next', [answer(step, { IDToken1: DEMO.username, IDToken2: DEMO.password })]);
  await daemon.nextEvent('TOKEN_EVENT');
  const state = await (await fetch(`${inspector}state`)).json();
  const [session] = state.sessions;
  const ended = await fetch(`${daemon.origin}/emulator/v1/sessions/ops/${encodeURIComponent(session.opsId)}`,
    { method: 'DELETE', headers: { Origin: daemon.origin } });
  assert.equal(ended.status, 200);
  await daemon.nextEvent('LOGOUT_EVENT');
  assert.deepEqual((await (await fetch(`${inspector}state`)).json()).sessions, []);
  const again = await fetch(`${daemon.origin}/emulator/v1/sessions/ops/${encodeURIComponent(session.opsId)}`, { method: 'DELETE' });
  assert.equal(again.status, 404);
});

test('the e-mailed one-time code is in the snapshot', async () => {
  const otp = await secondFactorByEmail(daemon.connection);
  assert.equal(JSON.parse(otp).stage, 'OneTimePasswordEmail');
  const sent = await daemon.connection.request('emulator.lastOneTimeCode');
  const state = await (await fetch(`${inspector}state`)).json();
  assert.equal(state.outbox.oneTimeCode.code, sent.code);
  assert.equal(state.outbox.oneTimeCode.to, 'demo@example.com');
});

/** The inspector open in a Chromium tab at 1280×800: evaluate, wait for a condition, screenshot. */
async function openPage(browser, url) {
  const tab = await openTab(browser, url);
  await tab.until(`document.getElementById('live')?.textContent === 'live'`, 5000);
  return {
    ...tab,
    /** With INSPECTOR_SCREENSHOTS=DIR, the page as it is now, to DIR/NAME.png (docs/inspector.md's come from here). */
    async screenshot(name) {
      const dir = process.env.INSPECTOR_SCREENSHOTS;
      if (dir) writeFileSync(join(dir, `${name}.png`), await tab.png());
    },
  };
}

test('the page, in Chromium: the timeline, a fault from the page, the e-mailed code', { skip: SKIP }, async () => {
  const browser = new Browser(chromium);
  try {
    const page = await openPage(browser, inspector);
    const { evaluate, until } = page;

    await daemon.connection.request('daemon.ping');
    await until(`[...document.querySelectorAll('#timeline summary')].some((s) => s.textContent.includes('daemon.ping'))`);

    await evaluate(`(() => {
      document.getElementById('fault-spec').value = '{"route":"wellKnown","kind":"status","status":503}';
      document.querySelector('#fault button').click();
    })()`);
    await until(`document.querySelectorAll('#faults tbody tr').length === 1`);
    assert.equal((await fetch(`${daemon.oauth}/.well-known/openid-configuration`)).status, 503);
    // A fault is used up by the request it answers: the page shows the plan empty again.
    await until(`document.querySelector('#faults .empty') !== null`);
    assert.equal((await fetch(`${daemon.oauth}/.well-known/openid-configuration`)).status, 200);

    await secondFactorByEmail(daemon.connection);
    const sent = await daemon.connection.request('emulator.lastOneTimeCode');
    assert.equal(await until(`document.getElementById('one-time-code')?.textContent === ${JSON.stringify(sent.code)}`), true);
    await page.screenshot('inspector-one-time-code');
    await page.close();
  } finally {
    await browser.close();
  }
});

test('the page, in Chromium: approving a push completes the journey waiting over stdio', { skip: SKIP }, async () => {
  const push = await startDaemon([
    '--journeys', join(here, '..', '..', 'docs', 'examples', 'am-exports', 'mfa'), '--auth-service', 'push_registration',
    '--flavor', 'rn-android', '--clock', 'virtual', '--seed', '7',
  ]);
  const browser = new Browser(chromium);
  try {
    const url = push.connection.stderr.match(/the inspector at (http:\/\/\S+\/inspector\/)/)[1];
    const page = await openPage(browser, url);
    const { connection } = push;
    await connection.request('start');
    const registration = await connection.request('next',
      [answer(await connection.request('login'), { IDToken1: DEMO.username, IDToken2: DEMO.password })]);
    const values = JSON.parse(registration).callbacks.flatMap((c) => [...(c.output ?? []), ...(c.input ?? [])]).map((v) => v.value);
    const uri = values.find((value) => typeof value === 'string' && value.startsWith('pushauth://'));
    await connection.request('emulator.scanPush', { username: DEMO.username, uri });
    const waiting = await connection.request('next', [registration]);
    assert.ok(JSON.parse(waiting).callbacks.some((c) => c.type === 'PollingWaitCallback'));

    await page.until(`document.querySelector('#phones .push button') !== null`);
    await page.screenshot('inspector-push');
    await page.evaluate(`document.querySelector('#phones .push button').click()`);
    await page.until(`document.querySelector('#phones .push') === null`);
    // The polling wait's time passes from the page too.
    await page.evaluate(`(() => {
      document.getElementById('advance-seconds').value = '6';
      document.querySelector('#advance button').click();
    })()`);
    await page.until(`document.getElementById('message').textContent === 'POST clock/advance: done'`);
    const done = await connection.request('next', [waiting]);
    assert.equal(done.type, 'LoginSuccess');
    await page.until(`document.querySelectorAll('#sessions tbody tr').length === 1`);
    await page.screenshot('inspector-session');
    await page.close();
  } finally {
    await browser.close();
    push.close();
  }
});
