// PingOne's DaVinci routes over HTTP, driven with fetch exactly as Ping's `davinci-client`
// sends its requests (ping-javascript-sdk packages/davinci-client/src/lib/davinci.api.ts: the
// `start` GET with `credentials: 'include'`, the `next` POSTs to `_links.next.href` with
// `interactionId`/`interactionToken` headers; davinci.utils.ts: the body), from a browser
// origin, preflights included. One daemon per test file.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_ID, FORM, REDIRECT_URI, binary, form, pkce, startDaemon } from './support.mjs';

const APP = 'http://localhost:5173';
let daemon;
let env;
before(async () => {
  daemon = await startDaemon(['--cors-origin', APP]);
  env = (await daemon.connection.request('emulator.davinciFlows', {})).environmentId;
});
after(() => daemon.close());

/** The headers davinci-client's base query adds to every request (`prepareHeaders`). */
const BASE = { Accept: 'application/json', 'x-requested-with': 'ping-sdk', 'x-requested-platform': 'javascript' };

/** A browser's fetch: the preflight a non-simple request needs, then the request with Origin. */
async function browserFetch(url, init) {
  // What a browser lists: the non-safelisted headers, lower case, sorted.
  const custom = Object.entries(init.headers ?? {})
    .filter(([name, value]) => name.toLowerCase() !== 'accept' && (name.toLowerCase() !== 'content-type' || value === 'application/json'))
    .map(([name]) => name.toLowerCase()).sort();
  let preflight;
  if (init.method === 'POST' || custom.length) {
    preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { Origin: APP, 'Access-Control-Request-Method': init.method, 'Access-Control-Request-Headers': custom.join(',') },
    });
    assert.equal(preflight.status, 204, `preflight for ${url}: ${await preflight.text()}`);
    assert.equal(preflight.headers.get('access-control-allow-origin'), APP);
    assert.equal(preflight.headers.get('access-control-allow-credentials'), 'true');
  }
  const response = await fetch(url, { ...init, headers: { ...init.headers, Origin: APP } });
  assert.equal(response.headers.get('access-control-allow-origin'), APP);
  return { response, preflight, body: await response.json() };
}

async function start(query = {}) {
  const { verifier, challenge } = await pkce();
  const params = form({
    client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', response_mode: 'pi.flow',
    scope: 'openid profile email', state: 'st4te', code_challenge: challenge, code_challenge_method: 'S256', ...query,
  });
  const { body } = await browserFetch(`${daemon.origin}/${env}/as/authorize?${params}`, {
    method: 'GET', credentials: 'include', headers: { ...BASE, 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  return { node: body, verifier };
}

/** `next`: transformSubmitRequest's body (or transformActionRequest's for a flow button). */
async function next(node, actionKey, formData = {}, eventType = 'submit') {
  return browserFetch(node._links.next.href, {
    method: 'POST', credentials: 'include',
    headers: { ...BASE, 'Content-Type': 'application/json', interactionId: node.interactionId, interactionToken: node.interactionToken },
    body: JSON.stringify({
      id: node.id, eventName: node.eventName, interactionId: node.interactionId,
      parameters: { eventType, data: { actionKey, formData } },
    }),
  });
}

async function tokens(code, verifier) {
  const response = await fetch(`${daemon.origin}/${env}/as/token`, {
    method: 'POST', headers: { ...FORM, Origin: APP },
    body: form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: CLIENT_ID, code_verifier: verifier }),
  });
  assert.equal(response.status, 200);
  return response.json();
}

test('discovery lists the endpoints under /{envId}/as/', async () => {
  const response = await fetch(`${daemon.origin}/${env}/as/.well-known/openid-configuration`);
  const discovery = await response.json();
  assert.equal(discovery.issuer, `${daemon.origin}/${env}/as`);
  assert.equal(discovery.authorization_endpoint, `${daemon.origin}/${env}/as/authorize`);
  assert.equal(discovery.end_session_endpoint, `${daemon.origin}/${env}/as/signoff`);
  assert.ok(discovery.response_modes_supported.includes('pi.flow'));
});

test('sign-on: a validation error, the same form again, the code, tokens, userinfo, signoff', async () => {
  const { node, verifier } = await start();
  assert.deepEqual(node.form.components.fields.map((f) => f.type), ['TEXT', 'PASSWORD', 'SUBMIT_BUTTON', 'FLOW_BUTTON', 'FLOW_BUTTON']);
  assert.match(node._links.next.href, new RegExp(`^${daemon.origin}/${env}/davinci/connections/[0-9a-f]{32}/capabilities/customHTMLTemplate$`));

  const missing = await next(node, 'SIGNON', { username: '', password: 'x' });
  assert.equal(missing.response.status, 400);
  assert.equal(missing.body.details[0].rawResponse.details[0].target, 'username');
  // The preflight asked for exactly the headers davinci-client sets.
  assert.equal(missing.preflight.headers.get('access-control-allow-headers'),
    'content-type,interactionid,interactiontoken,x-requested-platform,x-requested-with');

  const wrong = await next(node, 'SIGNON', { username: 'demo', password: 'wrong' });
  assert.equal(wrong.response.status, 400);
  assert.equal(wrong.body.code, ' Invalid username and/or password');
  assert.equal(wrong.body.details[0].rawResponse.details[0].target, 'password');

  const done = await next(node, 'SIGNON', { username: 'demo', password: 'Ch4ng3it!' });
  assert.equal(done.response.status, 200);
  assert.equal(done.body.status, 'COMPLETED');
  assert.equal(done.body.authorizeResponse.state, 'st4te');
  assert.match(done.response.headers.get('set-cookie'), /ST=/);
  const issued = await tokens(done.body.authorizeResponse.code, verifier);
  for (const token of [issued.id_token, issued.access_token]) {
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    assert.equal(claims.iss, `${daemon.origin}/${env}/as`, 'the issuer PingOne discovery names');
  }
  const info = await fetch(`${daemon.origin}/${env}/as/userinfo`, { headers: { Authorization: `Bearer ${issued.access_token}` } });
  assert.equal((await info.json()).sub !== undefined, true);

  const signoff = await fetch(`${daemon.origin}/${env}/as/signoff?${form({ id_token_hint: issued.id_token, client_id: CLIENT_ID })}`, { redirect: 'manual' });
  assert.ok([200, 302, 204].includes(signoff.status), `signoff ${signoff.status}`);
  const revoked = await fetch(`${daemon.origin}/${env}/as/revoke`, {
    method: 'POST', headers: FORM, body: form({ token: issued.refresh_token ?? issued.access_token, client_id: CLIENT_ID }),
  });
  assert.equal(revoked.status, 200);
});

test("authorize's nonce is the id token's nonce (OpenID Connect Core 3.1.2.1)", async () => {
  const { node, verifier } = await start({ nonce: 'n-0S6_WzA2Mj' });
  const done = await next(node, 'SIGNON', { username: 'demo', password: 'Ch4ng3it!' });
  const issued = await tokens(done.body.authorizeResponse.code, verifier);
  assert.equal(JSON.parse(Buffer.from(issued.id_token.split('.')[1], 'base64url').toString()).nonce, 'n-0S6_WzA2Mj');
});

test('password reset: the code the flow mailed is read with emulator.lastOneTimeCode', async () => {
  await daemon.connection.request('emulator.addUser', { username: 'rita', password: 'Old!Passw0rd', email: 'rita@example.com' });
  const { node } = await start({ acr_values: 'password-reset' });
  const reset = await next(node, 'SEND', { username: 'rita' });
  assert.equal(reset.body.form.name, 'Reset Password');
  assert.equal(reset.body.passwordPolicy.name, 'Standard');
  const sent = await daemon.connection.request('emulator.lastOneTimeCode', {});
  assert.deepEqual([sent.journey, sent.to, sent.delivery], ['davinci:password-reset', 'rita@example.com', 'email']);
  const weak = await next(reset.body, 'RESET', { otp: sent.code, password: 'weak' });
  assert.equal(weak.response.status, 400);
  assert.ok(weak.body.details[0].rawResponse.details[0].innerError.unsatisfiedRequirements.includes('length'));
  const done = await next(reset.body, 'RESET', { otp: sent.code, password: 'N3w!Passw0rd' });
  assert.equal(done.body.status, 'COMPLETED');
});

test('a flow loaded at run time, with a connector outcome a test chooses', async () => {
  const flow = {
    name: 'risky', start: 'signOn',
    nodes: [
      { id: 'signOn', form: { name: 'Sign On', fields: [{ type: 'TEXT', key: 'username' }, { type: 'PASSWORD', key: 'password' }, { type: 'SUBMIT_BUTTON', key: 'GO' }] }, next: { GO: 'check' } },
      { id: 'check', connector: 'pingOneSSOConnector', capability: 'checkPassword', next: { success: 'protect' } },
      { id: 'protect', connector: 'pingOneProtectConnector', capability: 'evaluate', next: { low: 'done', high: 'deny' } },
      { id: 'deny', connector: 'pingOneAuthenticationConnector', capability: 'returnErrorResponse', settings: { code: 'highRisk', message: 'Too risky' } },
      { id: 'done', connector: 'pingOneAuthenticationConnector', capability: 'returnSuccessResponseRedirect' },
    ],
  };
  assert.deepEqual(await daemon.connection.request('emulator.loadDavinciFlow', { flow }), { loaded: ['risky'] });
  assert.deepEqual(await daemon.connection.request('emulator.setConnectorOutcome', { flow: 'risky', node: 'protect', outcome: 'high' }),
    { flow: 'risky', node: 'protect', outcome: 'high' });
  const { node } = await start({ acr_values: 'risky' });
  const denied = await next(node, 'GO', { username: 'demo', password: 'Ch4ng3it!' });
  assert.deepEqual([denied.body.status, denied.body.error], ['FAILED', { code: 'highRisk', message: 'Too risky' }]);
  await assert.rejects(daemon.connection.request('emulator.setConnectorOutcome', { flow: 'risky', node: 'protect', outcome: 'medium' }),
    /no outcome medium/);
});

test('an unknown origin gets no CORS headers, and a forged interaction token is requestTimedOut', async () => {
  const { node } = await start();
  const other = await fetch(node._links.next.href, {
    method: 'OPTIONS', headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' },
  });
  assert.equal(other.status, 403);
  const forged = await next({ ...node, interactionToken: 'forged' }, 'SIGNON', { username: 'demo', password: 'Ch4ng3it!' });
  assert.equal(forged.response.status, 400);
  assert.equal(forged.body.code, 'requestTimedOut');
});

test('--davinci-flows loads a file at start; a bad one stops the start, naming the file and the fault', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'davinci-flows-'));
  try {
    const good = join(dir, 'flows.json');
    writeFileSync(good, JSON.stringify({ flows: [{ name: 'hello', start: 'say', nodes: [{ id: 'say', form: { name: 'Hello', fields: [{ type: 'LABEL', content: 'Hi' }] } }] }] }));
    const other = await startDaemon(['--davinci-flows', good]);
    try {
      const flows = await other.connection.request('emulator.davinciFlows', {});
      assert.deepEqual(flows.flows.map((f) => f.name), ['hello', 'password-reset', 'registration', 'sign-on', 'sign-on-mfa']);
    } finally {
      other.close();
    }
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ name: 'x', start: 'a', nodes: [{ id: 'a', form: { fields: [{ type: 'SLIDER', key: 'k' }] } }] }));
    const run = spawnSync(binary, ['--davinci-flows', bad], { input: '', encoding: 'utf8' });
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /the DaVinci flow file .*bad\.json is invalid: nodes\[0\]\.form\.fields\[0\]\.type: no collector SLIDER/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
