// The inspector's timeline (docs/inspector.md): an HTTP login and the OAuth calls after it, kept
// with their requests and responses redacted (no password, no token anywhere in
// /inspector/timeline), each entry naming the user and journey it concerns; then the page in
// headless Chromium (skipped with the reason when there is none): filtered by face, user, journey
// and text, an entry opened by click and by the keyboard, at a narrow width too; and with a page
// open, a login over stdio is on it within a second.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Browser, chromium, openTab, SKIP } from './chromium.mjs';
import { CLIENT_ID, CookieJar, DEMO, FORM, form, loginOverHTTP, startDaemon, tokensOverHTTP } from './support.mjs';

let daemon;
let inspector;

before(async () => {
  daemon = await startDaemon(['--clock', 'virtual', '--seed', '11']);
  inspector = daemon.connection.stderr.match(/the inspector at (http:\/\/\S+\/inspector\/)/)?.[1];
});
after(() => daemon?.close());

const timeline = async () => (await (await fetch(`${inspector}timeline`)).json()).entries;

test('an HTTP login and its token calls are kept redacted, naming the user and the journey', async () => {
  const jar = new CookieJar();
  const success = await (await loginOverHTTP(daemon, jar)).json();
  const { body: tokens } = await tokensOverHTTP(daemon, jar);
  const user = await fetch(`${daemon.oauth}/userinfo`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  assert.equal(user.status, 200);
  const refreshed = await (await fetch(`${daemon.oauth}/access_token`, {
    method: 'POST', headers: FORM, body: form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: CLIENT_ID }),
  })).json();
  const validate = await fetch(`${daemon.json}/sessions?_action=validate`, { method: 'POST', headers: { iPlanetDirectoryPro: success.tokenId } });
  assert.equal((await validate.json()).valid, true);

  const entries = await timeline();
  const shown = JSON.stringify(entries);
  for (const secret of [DEMO.password, success.tokenId, tokens.access_token, tokens.refresh_token, tokens.id_token,
    refreshed.access_token, refreshed.refresh_token]) {
    assert.ok(secret && !shown.includes(secret), `${secret.slice(0, 12)}… is not in /inspector/timeline`);
  }

  const journey = entries.filter((entry) => entry.face === 'http' && entry.name.endsWith('/authenticate'));
  assert.equal(journey.length, 2);
  assert.ok(journey.every((entry) => entry.journey === 'Login'), 'each step names its journey');
  assert.equal(journey[1].user, DEMO.username, 'the answered step names its user');
  const [, answered] = journey;
  assert.equal(answered.request.method, 'POST');
  assert.deepEqual(answered.request.query, { authIndexType: 'service', authIndexValue: 'Login' });
  assert.equal(answered.request.body.callbacks[0].input[0].value, DEMO.username, 'a username is shown');
  assert.equal(answered.request.body.callbacks[1].input[0].value, '[redacted]');
  assert.equal(answered.response.status, 200);
  assert.equal(answered.response.body.tokenId, '[redacted]');
  assert.equal(answered.response.body.realm, '/alpha');

  const token = entries.find((entry) => entry.name.endsWith('/access_token') && entry.request.body.grant_type === 'authorization_code');
  assert.equal(token.user, DEMO.username, 'a token call names its user');
  assert.equal(token.request.body.code, '[redacted]');
  assert.equal(token.request.body.client_id, CLIENT_ID);
  assert.equal(token.response.body.access_token, '[redacted]');
  assert.equal(token.response.body.scope, 'openid profile email');
  const userinfo = entries.find((entry) => entry.name.endsWith('/userinfo'));
  assert.equal(userinfo.user, DEMO.username);
  assert.equal(userinfo.request.headers.authorization, '[redacted]');
  assert.equal(userinfo.response.body.email, 'demo@example.com');
  const authorize = entries.find((entry) => entry.name.endsWith('/authorize'));
  assert.equal(authorize.response.status, 302);
  assert.equal(authorize.response.locationQuery.code, '[redacted]');
  assert.equal(authorize.response.locationQuery.state, 'st4te');
  assert.equal(authorize.request.headers.cookie, '[redacted]');
  const sessions = entries.find((entry) => entry.name.endsWith('/sessions'));
  assert.equal(sessions.request.headers.iplanetdirectorypro, '[redacted]', "AM's SSO token header is hidden");
  assert.equal(sessions.request.query._action, 'validate');
});

test('a failed journey names its node, reason, user and journey', async () => {
  const jar = new CookieJar();
  const failed = await loginOverHTTP(daemon, jar, { password: 'not-it' });
  assert.equal(failed.status, 401);
  const entry = (await timeline()).findLast((e) => e.face === 'journey');
  assert.equal(entry.failed, true);
  assert.match(entry.name, /^Login failed at /);
  assert.equal(entry.response.reason.code, 'wrong_password');
  assert.equal(entry.user, DEMO.username);
  assert.equal(entry.journey, 'Login');
  assert.ok(!JSON.stringify(entry).includes('not-it'));
});

test('a large response is cut, and says so', async () => {
  const hello = await daemon.connection.request('daemon.hello');
  assert.ok(JSON.stringify(hello).length > 8 * 1024, 'daemon.hello is larger than an entry shows');
  const entry = (await timeline()).findLast((e) => e.name === 'daemon.hello');
  assert.equal(entry.response.truncated, true);
  assert.ok(entry.response.bytes > 8 * 1024);
  assert.equal(entry.response.start.length, 8 * 1024);
});

/** The inspector in a Chromium tab at `width`×800, once its feed is live. */
async function openPage(browser, url, width = 1280) {
  const tab = await openTab(browser, url, { width });
  await tab.until(`document.getElementById('live')?.textContent === 'live'`, 5000);
  return tab;
}

const shownSummaries = `[...document.querySelectorAll('#timeline summary')].map((s) => s.textContent)`;
const choose = (id, value) => `(() => { const s = document.getElementById(${JSON.stringify(id)}); s.value = ${JSON.stringify(value)}; s.dispatchEvent(new Event('change')); return s.value === ${JSON.stringify(value)}; })()`;

test('the page, in Chromium: filters by face, user, journey and text; an entry opens by click and by keyboard', { skip: SKIP }, async () => {
  const browser = new Browser(chromium);
  try {
    const page = await openPage(browser, inspector);
    const { evaluate, until, key } = page;
    // The user and journey choices are those the entries name.
    await until(`[...document.getElementById('filter-user').options].some((o) => o.value === 'demo')`);
    await until(`[...document.getElementById('filter-journey').options].some((o) => o.value === 'Login')`);

    assert.ok(await evaluate(choose('filter-user', 'demo')));
    const forDemo = await evaluate(shownSummaries);
    assert.ok(forDemo.length > 0 && forDemo.every((text) => text.includes('user demo')), forDemo.join('\n'));
    assert.ok(await evaluate(choose('filter-face', 'journey')));
    const failures = await evaluate(shownSummaries);
    assert.ok(failures.length > 0 && failures.every((text) => text.includes('Login failed at')), failures.join('\n'));
    assert.ok(await evaluate(choose('filter-face', '')));
    assert.ok(await evaluate(choose('filter-user', '')));
    assert.ok(await evaluate(choose('filter-journey', 'Login')));
    const forLogin = await evaluate(shownSummaries);
    assert.ok(forLogin.every((text) => text.includes('journey Login')), forLogin.join('\n'));
    assert.ok(await evaluate(choose('filter-journey', '')));
    assert.ok(await evaluate(choose('filter-face', 'http')));
    await evaluate(`(() => { const t = document.getElementById('filter-text'); t.value = 'userinfo'; t.dispatchEvent(new Event('input')); })()`);
    const userinfo = await evaluate(shownSummaries);
    assert.ok(userinfo.length > 0 && userinfo.every((text) => text.includes('/userinfo')), userinfo.join('\n'));

    // A click opens an entry to its request and response.
    await evaluate(`document.querySelector('#timeline summary').click()`);
    const opened = await evaluate(`[...document.querySelectorAll('#timeline details[open] pre')].map((p) => p.textContent)`);
    assert.equal(opened.length, 2);
    assert.match(opened[0], /^request [\s\S]*"authorization": "\[redacted\]"/);
    assert.match(opened[1], /^response [\s\S]*"status": 200/);

    // The keyboard: ↓ moves to the next entry, Enter opens it.
    assert.ok(await evaluate(choose('filter-face', '')));
    await evaluate(`(() => { const t = document.getElementById('filter-text'); t.value = ''; t.dispatchEvent(new Event('input')); })()`);
    await evaluate(`document.querySelector('#timeline summary').focus()`);
    await key('ArrowDown');
    assert.equal(await evaluate(`document.activeElement === document.querySelectorAll('#timeline summary')[1]`), true);
    await key('Enter');
    await until(`document.querySelectorAll('#timeline details')[1].open`);
    await page.close();

    // A narrow window: the filters stack and nothing is wider than the window.
    const narrow = await openPage(browser, inspector, 360);
    await narrow.until(`document.querySelectorAll('#timeline summary').length > 0`);
    assert.equal(await narrow.evaluate(`document.documentElement.scrollWidth <= window.innerWidth`), true);
    const labels = await narrow.evaluate(`[...document.querySelectorAll('#timeline-filter label')].map((l) => l.getBoundingClientRect().top)`);
    assert.equal(new Set(labels).size, labels.length, 'one filter a line');
    await narrow.close();
  } finally {
    await browser.close();
  }
});

test('the page, in Chromium: with it open, a login over stdio is on it within a second', { skip: SKIP }, async () => {
  const browser = new Browser(chromium);
  try {
    const page = await openPage(browser, inspector);
    const { connection } = daemon;
    await connection.request('start');
    const step = JSON.parse(await connection.request('login'));
    step.callbacks[0].input[0].value = DEMO.username;
    step.callbacks[1].input[0].value = DEMO.password;
    await connection.request('next', [JSON.stringify(step)]);
    await page.until(`[...document.querySelectorAll('#timeline summary')].some((s) => s.textContent.includes(' next') && s.textContent.includes('user demo'))`, 1000);
    await connection.request('logout');
    await page.close();
  } finally {
    await browser.close();
  }
});
