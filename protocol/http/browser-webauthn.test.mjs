// A web app at http://localhost:3000 in headless Chromium registers a passkey with Chromium's
// virtual authenticator (CDP WebAuthn domain: CTAP2, internal transport, user verification)
// through the HTTP face, then signs in with it: the WebAuthn nodes must accept what a real
// browser produced. The page does what the ForgeRock JavaScript SDK's FRWebAuthn does with AM's
// MetadataCallback (packages/javascript-sdk/src/fr-webauthn/index.ts and helpers.ts in
// ForgeRock/forgerock-javascript-sdk: the options built from the metadata, the outcome written as
// `clientDataJSON::attestationObject::id` and `clientDataJSON::authenticatorData::signature::id::userHandle`).
// Chromium is Debian's `chromium`; without it the test is skipped with the reason.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Browser, chromium, SKIP } from './chromium.mjs';
import { startDaemon } from './support.mjs';

const APP = 'http://localhost:3000';
const here = dirname(fileURLToPath(import.meta.url));
const EXPORT = join(here, '..', '..', 'docs', 'examples', 'am-exports', 'mfa', 'Passkey.journey.json');

// What FRWebAuthn does, as a page script: the journey over fetch, the WebAuthn step answered.
const PAGE = `<!doctype html><title>app</title><script>
const toBytes = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0)).buffer;
const text = (buffer) => new TextDecoder().decode(new Uint8Array(buffer));
const signed = (buffer) => new Int8Array(buffer).toString();
function parseCredentials(value) {
  if (!value) return [];
  return value.split('}').filter((x) => !!x && x !== ']').map((x) => {
    const match = /new Int8Array\\((.+)\\)/.exec(x);
    return { id: new Int8Array(match ? JSON.parse(match[1]) : []).buffer, type: 'public-key' };
  });
}
const relyingPartyId = (value) => value.includes('rpId') ? value.replace(/rpId: "(.+)",/, '$1') : value.replace(/id: "(.+)",/, '$1');
async function register(meta) {
  const rpId = relyingPartyId(meta.relyingPartyId);
  const excludeCredentials = parseCredentials(meta.excludeCredentials);
  const credential = await navigator.credentials.create({ publicKey: {
    attestation: meta.attestationPreference,
    authenticatorSelection: JSON.parse(meta.authenticatorSelection),
    challenge: toBytes(meta.challenge),
    ...(excludeCredentials.length && { excludeCredentials }),
    pubKeyCredParams: JSON.parse(meta.pubKeyCredParams),
    rp: { name: meta.relyingPartyName, ...(rpId && { id: rpId }) },
    timeout: Number(meta.timeout),
    user: { displayName: meta.displayName || meta.userName, id: Int8Array.from(meta.userId.split('').map((c) => c.charCodeAt(0))), name: meta.displayName || meta.userName },
  } });
  const outcome = text(credential.response.clientDataJSON) + '::' + signed(credential.response.attestationObject) + '::' + credential.id;
  return JSON.stringify({ authenticatorAttachment: credential.authenticatorAttachment, legacyData: outcome });
}
async function authenticate(meta) {
  const allowCredentials = parseCredentials(meta.allowCredentials.replace(/^allowCredentials: /, ''));
  const rpId = relyingPartyId(meta.relyingPartyId);
  const credential = await navigator.credentials.get({ publicKey: {
    challenge: toBytes(meta.challenge), timeout: Number(meta.timeout), userVerification: meta.userVerification,
    ...(allowCredentials.length && { allowCredentials }), ...(rpId && { rpId }),
  } });
  const response = credential.response;
  let outcome = text(response.clientDataJSON) + '::' + signed(response.authenticatorData) + '::' + signed(response.signature) + '::' + credential.id;
  const userHandle = response.userHandle ? text(response.userHandle) : '';
  if (userHandle) outcome += '::' + userHandle;
  return JSON.stringify({ authenticatorAttachment: credential.authenticatorAttachment, legacyData: outcome });
}
async function journey(url) {
  const post = async (body) => {
    const response = await fetch(url, { method: 'POST', credentials: 'include', body, headers: {
      Accept: 'application/json', 'Accept-API-Version': 'protocol=1.0,resource=2.1',
      'Content-Type': 'application/json', 'X-Requested-With': 'forgerock-sdk' } });
    return { status: response.status, body: await response.json() };
  };
  let step = (await post(undefined)).body;
  if (!step.callbacks) throw new Error('first: ' + JSON.stringify(step));
  step.callbacks[0].input[0].value = 'demo';
  step.callbacks[1].input[0].value = 'Ch4ng3it!';
  step = (await post(JSON.stringify(step))).body;
  if (!step.callbacks) throw new Error('second: ' + JSON.stringify(step));
  const meta = step.callbacks.find((c) => c.type === 'MetadataCallback').output[0].value;
  const hidden = step.callbacks.find((c) => c.type === 'HiddenValueCallback');
  const kind = meta.pubKeyCredParams ? 'registration' : 'authentication';
  hidden.input[0].value = kind === 'registration' ? await register(meta) : await authenticate(meta);
  const done = await post(JSON.stringify(step));
  return { kind, status: done.status, tokenId: done.body.tokenId ?? null, answer: hidden.input[0].value };
}
</script>`;

let daemon;
let browser;
before(async () => {
  if (!chromium) return;
  daemon = await startDaemon(['--public-url', 'http://localhost:8080/am', '--cors-origin', APP, '--journeys', EXPORT]);
  browser = new Browser(chromium);
});
after(async () => {
  await browser?.close();
  daemon?.close();
});

test('Chromium registers a passkey with its virtual authenticator, then signs in with it', { skip: SKIP }, async () => {
  const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true });
  // The app's page is served by the test: every request to localhost:3000 gets it.
  browser.listeners.push((message) => {
    if (message.method === 'Fetch.requestPaused' && message.sessionId === sessionId) {
      browser.send('Fetch.fulfillRequest', {
        requestId: message.params.requestId, responseCode: 200,
        responseHeaders: [{ name: 'Content-Type', value: 'text/html' }], body: Buffer.from(PAGE).toString('base64'),
      }, sessionId);
    }
  });
  await browser.send('Fetch.enable', { patterns: [{ urlPattern: `${APP}/*` }] }, sessionId);
  await browser.send('WebAuthn.enable', {}, sessionId);
  const { authenticatorId } = await browser.send('WebAuthn.addVirtualAuthenticator', { options: {
    protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
    isUserVerified: true, automaticPresenceSimulation: true,
  } }, sessionId);
  await browser.send('Page.enable', {}, sessionId);
  await browser.send('Page.navigate', { url: `${APP}/` }, sessionId);
  const url = `${daemon.json.replace('127.0.0.1', 'localhost')}/authenticate?authIndexType=service&authIndexValue=PasskeyLogin`;
  const run = async () => {
    for (let attempt = 0; ; attempt++) {
      const { result, exceptionDetails } = await browser.send('Runtime.evaluate', {
        expression: `typeof journey === 'function' ? journey(${JSON.stringify(url)}) : null`,
        awaitPromise: true, returnByValue: true,
      }, sessionId);
      if (exceptionDetails) throw new Error(`page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      if (result.value) return result.value;
      assert.ok(attempt < 100, 'the page never loaded');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const registered = await run();
  assert.equal(registered.kind, 'registration');
  assert.equal(registered.status, 200, `registration: ${registered.answer}`);
  assert.ok(registered.tokenId);
  const { credentials } = await browser.send('WebAuthn.getCredentials', { authenticatorId }, sessionId);
  assert.equal(credentials.length, 1);

  // A new visit: the session the registration made would answer the journey at once.
  await browser.send('Network.clearBrowserCookies', {}, sessionId);
  const signedIn = await run();
  assert.equal(signedIn.kind, 'authentication');
  assert.equal(signedIn.status, 200, `authentication: ${signedIn.answer}`);
  assert.ok(signedIn.tokenId);

  // The same assertion again: its challenge is spent, and the node refuses it.
  const replay = await browser.send('Runtime.evaluate', { expression: `(async () => {
    const post = (body) => fetch(${JSON.stringify(url)}, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'Accept-API-Version': 'protocol=1.0,resource=2.1' } });
    const step = await (await post(undefined)).json();
    step.callbacks[0].input[0].value = 'demo'; step.callbacks[1].input[0].value = 'Ch4ng3it!';
    const webAuthn = await (await post(JSON.stringify(step))).json();
    webAuthn.callbacks.find((c) => c.type === 'HiddenValueCallback').input[0].value = ${JSON.stringify(signedIn.answer)};
    return (await post(JSON.stringify(webAuthn))).status;
  })()`, awaitPromise: true, returnByValue: true }, sessionId);
  assert.equal(replay.result.value, 401);
});
