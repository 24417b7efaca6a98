// The inspector's DaVinci steps (docs/inspector.md): a flow's connector step AuthBridge does not
// run is offered with its outcomes, and the page's Set (the admin API's
// `PUT davinci/flows/{flow}/nodes/{node}/outcome`, as `emulator.setConnectorOutcome`) decides what
// the next sign-on through the flow takes, over the HTTP face as in RNPingDavinci.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Browser, chromium, openTab, SKIP } from './chromium.mjs';
import { CLIENT_ID, DEMO, REDIRECT_URI, form, pkce, startDaemon } from './support.mjs';

const FLOW = {
  name: 'risk-sign-on', start: 'signOn',
  nodes: [
    { id: 'signOn', form: { name: 'Sign On', fields: [
      { type: 'TEXT', key: 'username', label: 'Username', required: true },
      { type: 'PASSWORD', key: 'password', label: 'Password', required: true },
      { type: 'SUBMIT_BUTTON', key: 'SIGNON', label: 'Sign On' }] },
    next: { SIGNON: 'check' } },
    { id: 'check', connector: 'pingOneSSOConnector', capability: 'checkPassword', next: { success: 'risk' } },
    { id: 'risk', connector: 'pingOneProtectConnector', capability: 'evaluate', default: 'low', next: { low: 'done', high: 'deny' } },
    { id: 'deny', connector: 'pingOneAuthenticationConnector', capability: 'returnErrorResponse',
      settings: { code: 'highRisk', message: 'Sign-on refused' } },
    { id: 'done', connector: 'pingOneAuthenticationConnector', capability: 'returnSuccessResponseRedirect' },
  ],
};

let daemon;
let env;
before(async () => {
  daemon = await startDaemon(['--clock', 'virtual']);
  await daemon.connection.request('emulator.loadDavinciFlow', { flow: FLOW });
  env = (await daemon.connection.request('emulator.davinciFlows', {})).environmentId;
});
after(() => daemon.close());

const state = async () => (await fetch(`${daemon.origin}/inspector/state`)).json();
const choose = (flow, node, outcome) => fetch(
  `${daemon.origin}/emulator/v1/davinci/flows/${encodeURIComponent(flow)}/nodes/${encodeURIComponent(node)}/outcome`,
  { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ outcome }) });

/** A sign-on through the flow as davinci-client sends it: the form, then the credentials. */
async function signOn() {
  const { challenge } = await pkce();
  const query = form({
    client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, response_type: 'code', response_mode: 'pi.flow',
    scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256', acr_values: FLOW.name,
  });
  const first = await (await fetch(`${daemon.origin}/${env}/as/authorize?${query}`)).json();
  const answer = await fetch(first._links.next.href, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', interactionId: first.interactionId, interactionToken: first.interactionToken },
    body: JSON.stringify({ id: first.id, eventName: 'continue', interactionId: first.interactionId,
      parameters: { eventType: 'submit', data: { actionKey: 'SIGNON', formData: { username: DEMO.username, password: DEMO.password } } } }),
  });
  return answer.json();
}

test('the step is offered with its outcomes; the admin API chooses one and the next sign-on takes it', async () => {
  const offered = (await state()).davinciSteps.find((f) => f.name === FLOW.name);
  assert.deepEqual(offered.scenarioSteps, [{ node: 'risk', outcomes: ['high', 'low'], chosen: null }]);
  assert.ok(!(await state()).davinciSteps.some((f) => f.name === 'sign-on'), 'a flow without such steps is not listed');

  assert.equal((await signOn()).status, 'COMPLETED', 'the default (low) signs on');
  const set = await choose(FLOW.name, 'risk', 'high');
  assert.equal(set.status, 200);
  assert.deepEqual(await set.json(), { flow: FLOW.name, node: 'risk', outcome: 'high' });
  assert.equal((await state()).davinciSteps.find((f) => f.name === FLOW.name).scenarioSteps[0].chosen, 'high');
  const { flows } = await daemon.connection.request('emulator.davinciFlows', {});
  assert.equal(flows.find((f) => f.name === FLOW.name).scenarioSteps[0].chosen, 'high');
  const refused = await signOn();
  assert.equal(refused.status, 'FAILED');
  assert.equal(refused.error.code, 'highRisk');
});

test('an unknown flow, step or outcome is a 404 naming what exists; an outcome missing is a 400', async () => {
  const noFlow = await choose('nope', 'risk', 'low');
  assert.equal(noFlow.status, 404);
  assert.match((await noFlow.json()).error.message, /no flow nope/);
  const noStep = await choose(FLOW.name, 'check', 'low');
  assert.equal(noStep.status, 404);
  assert.match((await noStep.json()).error.message, /has no step check a scenario decides \(it has risk\)/);
  const noOutcome = await choose(FLOW.name, 'risk', 'medium');
  assert.equal(noOutcome.status, 404);
  assert.match((await noOutcome.json()).error.message, /no outcome medium \(it has high, low\)/);
  const empty = await fetch(`${daemon.origin}/emulator/v1/davinci/flows/${FLOW.name}/nodes/risk/outcome`,
    { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(empty.status, 400);
});

test('the page, in Chromium: the step with its outcomes, and Set chooses one', { skip: SKIP }, async () => {
  const browser = new Browser(chromium);
  try {
    const { evaluate, until, close } = await openTab(browser, `${daemon.origin}/inspector/`, { wait: 5000 });
    const select = `[...document.querySelectorAll('#scripted select')].find((s) => s.labels[0]?.textContent === 'risk takes ')`;
    await until(`${select} !== undefined`);
    await evaluate(`(() => { ${select}.value = 'low'; })()`);
    await evaluate(`document.querySelector('[aria-label="Set the outcome of step risk of flow ${FLOW.name}"]').click()`);
    await until(`document.getElementById('scripted').textContent.includes('chosen now: low')`);
    await close();
  } finally {
    await browser.close();
  }
  assert.equal((await state()).davinciSteps.find((f) => f.name === FLOW.name).scenarioSteps[0].chosen, 'low');
});
